ALTER TABLE "payments" DROP CONSTRAINT "payments_one_purpose";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_booking_id_bookings_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_party_booking_id_party_bookings_id_fk";
--> statement-breakpoint
ALTER TABLE "coupon_redemptions" DROP CONSTRAINT "coupon_redemptions_booking_id_bookings_id_fk";
--> statement-breakpoint
DROP INDEX "payments_booking";--> statement-breakpoint
DROP INDEX "payments_party_booking";--> statement-breakpoint
DROP INDEX "coupon_redemptions_booking";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "purchase_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "purchase_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ALTER COLUMN "purchase_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ALTER COLUMN "purchase_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "party_bookings" ALTER COLUMN "code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "booking_id";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "party_booking_id";--> statement-breakpoint
ALTER TABLE "coupon_redemptions" DROP COLUMN "booking_id";