ALTER TABLE "coupons" ADD COLUMN "percent_off" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "amount_off" integer;--> statement-breakpoint
ALTER TABLE "promotional_codes" ADD COLUMN "percent_off" integer;--> statement-breakpoint
ALTER TABLE "promotional_codes" ADD COLUMN "amount_off" integer;