ALTER TABLE "auth_sessions" ADD COLUMN "support_company_id" integer;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "support_reason" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "support_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "kind" text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_support_company_id_companies_id_fk" FOREIGN KEY ("support_company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;