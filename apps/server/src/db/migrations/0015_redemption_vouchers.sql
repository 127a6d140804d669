ALTER TABLE "coupon_redemptions" ADD COLUMN "voucher_code" text;--> statement-breakpoint
-- NSW vouchers on live event bookings become redemption rows: one use per code while it lives.
UPDATE "coupon_redemptions" r SET "voucher_code" = b."nsw_code" FROM "bookings" b
  WHERE r."purchase_kind" = 'event' AND r."purchase_id" = b."id" AND b."nsw_code" IS NOT NULL AND b."status" IN ('pending', 'confirmed');--> statement-breakpoint
INSERT INTO "coupon_redemptions" ("company_id", "parent_id", "voucher_code", "purchase_kind", "purchase_id", "created_at")
  SELECT DISTINCT ON (b."company_id", b."nsw_code") b."company_id", b."parent_id", b."nsw_code", 'event', b."id", b."created_at"
  FROM "bookings" b
  WHERE b."nsw_code" IS NOT NULL AND b."status" IN ('pending', 'confirmed')
    AND NOT EXISTS (SELECT 1 FROM "coupon_redemptions" r WHERE r."purchase_kind" = 'event' AND r."purchase_id" = b."id")
  ORDER BY b."company_id", b."nsw_code", b."id";
--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_voucher" ON "coupon_redemptions" USING btree ("company_id","voucher_code");
