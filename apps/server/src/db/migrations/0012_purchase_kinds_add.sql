DROP INDEX "payment_terms_company_kind";--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ALTER COLUMN "coupon_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ALTER COLUMN "booking_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "purchase_kind" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "purchase_id" integer;--> statement-breakpoint
ALTER TABLE "payment_terms" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD COLUMN "promotional_code_id" integer;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD COLUMN "purchase_kind" text;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD COLUMN "purchase_id" integer;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD COLUMN "booking_id" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "payment_terms_id" integer;--> statement-breakpoint
ALTER TABLE "party_bookings" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_purchase" ON "payments" USING btree ("company_id","purchase_kind","purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_terms_company_kind_default" ON "payment_terms" USING btree ("company_id","applies_to") WHERE "payment_terms"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_company_code" ON "bookings" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_purchase" ON "coupon_redemptions" USING btree ("company_id","purchase_kind","purchase_id");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_promotional_code" ON "coupon_redemptions" USING btree ("promotional_code_id");--> statement-breakpoint
CREATE UNIQUE INDEX "party_bookings_company_code" ON "party_bookings" USING btree ("company_id","code");