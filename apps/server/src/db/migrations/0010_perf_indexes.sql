-- Hand-added: the trigram indexes of the admin bookings search need pg_trgm (a trusted extension: a
-- database owner may create it, PostgreSQL 13+). See docs/performance.md.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "payments_company_created" ON "payments" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bookings_event_created" ON "bookings" USING btree ("company_id","event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bookings_reference_trgm" ON "bookings" USING gin ("reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "bookings_coupon_code_trgm" ON "bookings" USING gin ("coupon_code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "waitlist_event" ON "waitlist_entries" USING btree ("company_id","event_id","status");