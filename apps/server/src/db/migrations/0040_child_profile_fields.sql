ALTER TABLE "children" ADD COLUMN "allergies" text;--> statement-breakpoint
ALTER TABLE "children" ADD COLUMN "emergency_contacts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "children" ADD COLUMN "school" text;--> statement-breakpoint
CREATE INDEX "users_full_name_trgm" ON "users" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_trgm" ON "users" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "children_first_name_trgm" ON "children" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "children_last_name_trgm" ON "children" USING gin ("last_name" gin_trgm_ops);