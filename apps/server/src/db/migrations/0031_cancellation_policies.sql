CREATE TABLE "cancellation_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"applies_to" text NOT NULL,
	"notice_hours" integer DEFAULT 48 NOT NULL,
	"percent_back" integer DEFAULT 100 NOT NULL,
	"destination" text DEFAULT 'credit' NOT NULL,
	"summary" text
);
--> statement-breakpoint
ALTER TABLE "cancellation_policies" ADD CONSTRAINT "cancellation_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cancellation_policies_kind" ON "cancellation_policies" USING btree ("company_id","applies_to");--> statement-breakpoint
CREATE INDEX "cancellation_policies_company" ON "cancellation_policies" USING btree ("company_id");