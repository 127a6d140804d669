CREATE TABLE "payment_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"provider" text NOT NULL,
	"oauth_state_hash" text,
	"oauth_started_by" integer,
	"oauth_state_expires_at" timestamp with time zone,
	"account_id" text,
	"access_token" text,
	"refresh_token" text,
	"access_token_expires_at" timestamp with time zone,
	"location_id" text,
	"location_name" text,
	"connected_at" timestamp with time zone,
	"connected_by" integer,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "payment_connections" ADD CONSTRAINT "payment_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_connections" ADD CONSTRAINT "payment_connections_oauth_started_by_users_id_fk" FOREIGN KEY ("oauth_started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_connections" ADD CONSTRAINT "payment_connections_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_connections_company_provider" ON "payment_connections" USING btree ("company_id","provider");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_connections_account" ON "payment_connections" USING btree ("provider","account_id");