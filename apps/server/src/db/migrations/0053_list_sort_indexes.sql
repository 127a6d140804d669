DROP INDEX "bookings_company_event";--> statement-breakpoint
CREATE INDEX "payments_company_paid" ON "payments" USING btree ("company_id","paid_at","id");--> statement-breakpoint
CREATE INDEX "payments_company_parent" ON "payments" USING btree ("company_id","parent_id","id");--> statement-breakpoint
CREATE INDEX "payments_company_method" ON "payments" USING btree ("company_id","method","id");--> statement-breakpoint
CREATE INDEX "payments_company_reference" ON "payments" USING btree ("company_id","reference","id");--> statement-breakpoint
CREATE INDEX "payments_company_kind" ON "payments" USING btree ("company_id","purchase_kind","id");--> statement-breakpoint
CREATE INDEX "payments_company_amount" ON "payments" USING btree ("company_id","amount","id");--> statement-breakpoint
CREATE INDEX "payments_company_refunded" ON "payments" USING btree ("company_id","refunded","id");--> statement-breakpoint
CREATE INDEX "payments_company_status" ON "payments" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "payments_reference_trgm" ON "payments" USING gin ("reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_provider_ref_trgm" ON "payments" USING gin ("provider_ref" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "bookings_event_code" ON "bookings" USING btree ("company_id","event_id","code","id");--> statement-breakpoint
CREATE INDEX "bookings_event_parent" ON "bookings" USING btree ("company_id","event_id","parent_id","id");--> statement-breakpoint
CREATE INDEX "bookings_event_quantity" ON "bookings" USING btree ("company_id","event_id","quantity","id");--> statement-breakpoint
CREATE INDEX "bookings_event_total" ON "bookings" USING btree ("company_id","event_id","total","id");--> statement-breakpoint
CREATE INDEX "bookings_company_event" ON "bookings" USING btree ("company_id","event_id","status","id");