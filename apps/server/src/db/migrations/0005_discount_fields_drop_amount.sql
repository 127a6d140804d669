-- Existing discounts keep their value: percent ones as percent_off, fixed ones as amount_off (cents).
UPDATE "coupons" SET "percent_off" = CASE WHEN "discount_type" = 'percent' THEN "amount" END, "amount_off" = CASE WHEN "discount_type" = 'fixed' THEN "amount" END;--> statement-breakpoint
UPDATE "promotional_codes" SET "percent_off" = CASE WHEN "discount_type" = 'percent' THEN "amount" END, "amount_off" = CASE WHEN "discount_type" = 'fixed' THEN "amount" END;--> statement-breakpoint
ALTER TABLE "coupons" DROP COLUMN "amount";--> statement-breakpoint
ALTER TABLE "promotional_codes" DROP COLUMN "amount";
