CREATE TABLE "system_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"discount_type" text NOT NULL,
	"amount" integer NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"usage_limit" integer,
	"per_parent_limit" integer,
	"event_ids" integer[] DEFAULT '{}' NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "insurances" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"price" integer NOT NULL,
	"description" text,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "nsw_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text DEFAULT 'NSW voucher' NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"voucher_value" integer DEFAULT 5000 NOT NULL,
	"code_format" text DEFAULT '^[A-Za-z0-9]{6,20}$' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"applies_to" text NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotional_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"discount_type" text NOT NULL,
	"amount" integer NOT NULL,
	"applies_to" text DEFAULT 'all' NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surcharges" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"payment_method" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text
);
--> statement-breakpoint
CREATE TABLE "event_downloads" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"file" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_price_tiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"session_id" integer,
	"name" text NOT NULL,
	"min_days" integer NOT NULL,
	"price" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"days_of_week" text[] DEFAULT '{"1","2","3","4","5"}' NOT NULL,
	"capacity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"session_id" integer,
	"name" text NOT NULL,
	"price" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"venue_id" integer,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"age_start" integer DEFAULT 0 NOT NULL,
	"age_end" integer DEFAULT 100 NOT NULL,
	"intro" text,
	"full" text,
	"cut_off_day" boolean DEFAULT false NOT NULL,
	"cutoff_days_before" integer DEFAULT 0 NOT NULL,
	"cutoff_time" time,
	"booking_fee" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "birthday_pricing" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text DEFAULT 'Birthday party' NOT NULL,
	"base_price" integer NOT NULL,
	"included_guests" integer NOT NULL,
	"price_per_extra_guest" integer NOT NULL,
	"deposit" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "party_invitation_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"reply_to" text
);
--> statement-breakpoint
CREATE TABLE "party_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"venue_id" integer,
	"room_id" integer,
	"start_time" time NOT NULL,
	"duration_minutes" integer NOT NULL,
	"days_of_week" text[] DEFAULT '{"6","7"}' NOT NULL,
	"capacity" integer NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "restricted_dates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"date" date NOT NULL,
	"reason" text NOT NULL,
	"applies_to" text DEFAULT 'all' NOT NULL,
	"recurring_yearly" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"venue_id" integer NOT NULL,
	"name" text NOT NULL,
	"capacity" integer,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "venues" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"suburb" text,
	"state" text,
	"postcode" text,
	"phone" text,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "waivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"applies_to" text DEFAULT 'all' NOT NULL,
	"ask_fields" text[] DEFAULT '{}' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "system_emails" ADD CONSTRAINT "system_emails_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurances" ADD CONSTRAINT "insurances_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nsw_settings" ADD CONSTRAINT "nsw_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_terms" ADD CONSTRAINT "payment_terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotional_codes" ADD CONSTRAINT "promotional_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surcharges" ADD CONSTRAINT "surcharges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_contacts" ADD CONSTRAINT "event_contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_contacts" ADD CONSTRAINT "event_contacts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_downloads" ADD CONSTRAINT "event_downloads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_downloads" ADD CONSTRAINT "event_downloads_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_price_tiers" ADD CONSTRAINT "event_price_tiers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_price_tiers" ADD CONSTRAINT "event_price_tiers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_price_tiers" ADD CONSTRAINT "event_price_tiers_session_id_event_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."event_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_sessions" ADD CONSTRAINT "event_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_sessions" ADD CONSTRAINT "event_sessions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_session_id_event_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."event_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "birthday_pricing" ADD CONSTRAINT "birthday_pricing_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_invitation_settings" ADD CONSTRAINT "party_invitation_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_slots" ADD CONSTRAINT "party_slots_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_slots" ADD CONSTRAINT "party_slots_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_slots" ADD CONSTRAINT "party_slots_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restricted_dates" ADD CONSTRAINT "restricted_dates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venues" ADD CONSTRAINT "venues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waivers" ADD CONSTRAINT "waivers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "system_emails_company_kind" ON "system_emails" USING btree ("company_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_company_code" ON "coupons" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "insurances_company" ON "insurances" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "nsw_settings_company" ON "nsw_settings" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_terms_company_kind" ON "payment_terms" USING btree ("company_id","applies_to");--> statement-breakpoint
CREATE UNIQUE INDEX "promotional_codes_company_code" ON "promotional_codes" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "surcharges_company_method" ON "surcharges" USING btree ("company_id","payment_method");--> statement-breakpoint
CREATE INDEX "event_contacts_event" ON "event_contacts" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE INDEX "event_downloads_event" ON "event_downloads" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE INDEX "event_price_tiers_event" ON "event_price_tiers" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE INDEX "event_sessions_event" ON "event_sessions" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE INDEX "event_tickets_event" ON "event_tickets" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE INDEX "events_company" ON "events" USING btree ("company_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "birthday_pricing_company" ON "birthday_pricing" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "party_invitation_settings_company" ON "party_invitation_settings" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "party_slots_company" ON "party_slots" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "restricted_dates_company" ON "restricted_dates" USING btree ("company_id","date");--> statement-breakpoint
CREATE INDEX "rooms_company" ON "rooms" USING btree ("company_id","venue_id");--> statement-breakpoint
CREATE INDEX "venues_company" ON "venues" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "waivers_company" ON "waivers" USING btree ("company_id");