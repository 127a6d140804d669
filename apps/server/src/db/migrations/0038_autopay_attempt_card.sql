ALTER TABLE "autopay_attempts" ADD COLUMN "customer_ref" text;--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD COLUMN "card_ref" text;