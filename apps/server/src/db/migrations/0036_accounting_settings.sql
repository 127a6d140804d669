CREATE TABLE "accounting_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"sales_account_code" text DEFAULT '200' NOT NULL,
	"gst_free_sales_account_code" text DEFAULT '200' NOT NULL,
	"card_account_code" text DEFAULT '090' NOT NULL,
	"cash_account_code" text DEFAULT '090' NOT NULL,
	"refund_account_code" text DEFAULT '090' NOT NULL,
	"gst_tax_type" text DEFAULT 'OUTPUT' NOT NULL,
	"gst_free_tax_type" text DEFAULT 'EXEMPTOUTPUT' NOT NULL,
	"no_gst_tax_type" text DEFAULT 'BASEXCLUDED' NOT NULL,
	"sync_from" date,
	"oauth_state_hash" text,
	"oauth_started_by" integer,
	"oauth_state_expires_at" timestamp with time zone,
	"xero_tenant_id" text,
	"xero_tenant_name" text,
	"xero_connection_id" text,
	"access_token" text,
	"refresh_token" text,
	"access_token_expires_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"connected_by" integer,
	"sync_lease_until" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "accounting_sync_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"local_id" integer NOT NULL,
	"xero_id" text,
	"status" text NOT NULL,
	"sent" text,
	"detail" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounting_settings" ADD CONSTRAINT "accounting_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_settings" ADD CONSTRAINT "accounting_settings_oauth_started_by_users_id_fk" FOREIGN KEY ("oauth_started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_settings" ADD CONSTRAINT "accounting_settings_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_sync_items" ADD CONSTRAINT "accounting_sync_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_settings_company" ON "accounting_settings" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_sync_items_local" ON "accounting_sync_items" USING btree ("company_id","kind","local_id");--> statement-breakpoint
CREATE INDEX "accounting_sync_items_status" ON "accounting_sync_items" USING btree ("company_id","status");