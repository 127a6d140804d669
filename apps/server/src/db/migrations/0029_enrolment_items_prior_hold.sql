DROP INDEX "enrolment_purchase_items_enrolment";--> statement-breakpoint
ALTER TABLE "enrolment_purchase_items" ADD COLUMN "prior_held_for" text;--> statement-breakpoint
ALTER TABLE "enrolment_purchase_items" ADD COLUMN "prior_hold_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "enrolment_purchase_items_enrolment" ON "enrolment_purchase_items" USING btree ("company_id","enrolment_id");