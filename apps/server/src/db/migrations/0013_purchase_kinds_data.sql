-- Custom SQL migration file, put your code below! ---- Payments point at their purchase by kind and id (features/checkout, decision 010).
UPDATE "payments" SET "purchase_kind" = CASE WHEN "booking_id" IS NOT NULL THEN 'event' ELSE 'party' END, "purchase_id" = coalesce("booking_id", "party_booking_id");--> statement-breakpoint
-- Redemptions name their purchase too; party checkouts wrote none: add them for live party bookings.
UPDATE "coupon_redemptions" SET "purchase_kind" = 'event', "purchase_id" = "booking_id";--> statement-breakpoint
INSERT INTO "coupon_redemptions" ("company_id", "coupon_id", "parent_id", "purchase_kind", "purchase_id", "created_at")
  SELECT pb."company_id", c."id", pb."parent_id", 'party', pb."id", pb."created_at"
  FROM "party_bookings" pb JOIN "coupons" c ON c."company_id" = pb."company_id" AND c."code" = pb."coupon_code"
  WHERE pb."status" IN ('pending', 'confirmed');--> statement-breakpoint
-- Each company had at most one terms row per kind: it becomes that kind's default.
UPDATE "payment_terms" SET "is_default" = true;--> statement-breakpoint
-- Short human references for existing bookings (alphabet without 0/O/1/I), unique per company.
DO $$
DECLARE
  r record;
  alphabet text := '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  c text;
BEGIN
  FOR r IN SELECT "id", "company_id" FROM "bookings" WHERE "code" IS NULL LOOP
    LOOP
      c := 'BK-';
      FOR i IN 1..5 LOOP c := c || substr(alphabet, 1 + floor(random() * 32)::int, 1); END LOOP;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "bookings" WHERE "company_id" = r."company_id" AND "code" = c);
    END LOOP;
    UPDATE "bookings" SET "code" = c WHERE "id" = r."id";
  END LOOP;
  FOR r IN SELECT "id", "company_id" FROM "party_bookings" WHERE "code" IS NULL LOOP
    LOOP
      c := 'BP-';
      FOR i IN 1..5 LOOP c := c || substr(alphabet, 1 + floor(random() * 32)::int, 1); END LOOP;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "party_bookings" WHERE "company_id" = r."company_id" AND "code" = c);
    END LOOP;
    UPDATE "party_bookings" SET "code" = c WHERE "id" = r."id";
  END LOOP;
END $$;
