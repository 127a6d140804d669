CREATE TABLE "mailchimp_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"method" text,
	"credential" text,
	"data_centre" text,
	"account_name" text,
	"connected_at" timestamp with time zone,
	"connected_by" integer,
	"list_id" text,
	"list_name" text,
	"webhook_id" text,
	"webhook_secret_hash" text,
	"oauth_state_hash" text,
	"oauth_started_by" integer,
	"oauth_state_expires_at" timestamp with time zone,
	"sync_lease_until" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"unsubscribes_read_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "mailchimp_connections_webhookSecretHash_unique" UNIQUE("webhook_secret_hash"),
	CONSTRAINT "mailchimp_connections_oauthStateHash_unique" UNIQUE("oauth_state_hash")
);
--> statement-breakpoint
CREATE TABLE "mailchimp_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fingerprint" text,
	"error" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mass_mail_recipients" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"mass_mail_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"outbox_id" integer,
	"skipped" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mass_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"marketing" boolean DEFAULT true NOT NULL,
	"filter" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"send_at" timestamp with time zone,
	"attachment_key" text,
	"attachment_name" text,
	"attachment_type" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contact_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"body" text NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"full_name" text NOT NULL,
	"email" text,
	"phone" text,
	"children" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"interest" text,
	"source" text NOT NULL,
	"stage" text NOT NULL,
	"follow_up_on" date,
	"parent_id" integer,
	"converted_at" timestamp with time zone,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"sources" jsonb NOT NULL,
	"stages" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailchimp_connections" ADD CONSTRAINT "mailchimp_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_connections" ADD CONSTRAINT "mailchimp_connections_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_connections" ADD CONSTRAINT "mailchimp_connections_oauth_started_by_users_id_fk" FOREIGN KEY ("oauth_started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_members" ADD CONSTRAINT "mailchimp_members_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_members" ADD CONSTRAINT "mailchimp_members_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_mail_recipients" ADD CONSTRAINT "mass_mail_recipients_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_mail_recipients" ADD CONSTRAINT "mass_mail_recipients_mass_mail_id_mass_mails_id_fk" FOREIGN KEY ("mass_mail_id") REFERENCES "public"."mass_mails"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_mail_recipients" ADD CONSTRAINT "mass_mail_recipients_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_mail_recipients" ADD CONSTRAINT "mass_mail_recipients_outbox_id_mail_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."mail_outbox"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_mails" ADD CONSTRAINT "mass_mails_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_mails" ADD CONSTRAINT "mass_mails_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_notes" ADD CONSTRAINT "contact_notes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_notes" ADD CONSTRAINT "contact_notes_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_notes" ADD CONSTRAINT "contact_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_settings" ADD CONSTRAINT "crm_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailchimp_connections_company" ON "mailchimp_connections" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailchimp_members_parent" ON "mailchimp_members" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "mailchimp_members_email" ON "mailchimp_members" USING btree ("company_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "mass_mail_recipients_family" ON "mass_mail_recipients" USING btree ("mass_mail_id","parent_id");--> statement-breakpoint
CREATE INDEX "mass_mail_recipients_pending" ON "mass_mail_recipients" USING btree ("company_id","mass_mail_id","outbox_id");--> statement-breakpoint
CREATE INDEX "mass_mails_company" ON "mass_mails" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "mass_mails_due" ON "mass_mails" USING btree ("status","send_at");--> statement-breakpoint
CREATE INDEX "contact_notes_contact" ON "contact_notes" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE INDEX "contacts_company_stage" ON "contacts" USING btree ("company_id","stage");--> statement-breakpoint
CREATE INDEX "contacts_company_follow_up" ON "contacts" USING btree ("company_id","follow_up_on");--> statement-breakpoint
CREATE INDEX "contacts_parent" ON "contacts" USING btree ("company_id","parent_id");