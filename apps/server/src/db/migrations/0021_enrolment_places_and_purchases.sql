CREATE TABLE "enrolment_purchase_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"purchase_id" integer NOT NULL,
	"enrolment_id" integer NOT NULL,
	"amount" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrolment_purchases" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"reference" text NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"pricing" jsonb NOT NULL,
	"total" integer NOT NULL,
	"coupon_code" text,
	"nsw_code" text,
	"registration_form_id" integer,
	"answers" jsonb,
	"hold_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "enrolment_purchases_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "enrolment_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"sibling_discount_percent" integer DEFAULT 0 NOT NULL,
	"multi_class_discount_percent" integer DEFAULT 0 NOT NULL,
	"withdrawal_policy" text DEFAULT 'credit' NOT NULL,
	"offer_hold_hours" integer DEFAULT 24 NOT NULL,
	"trial_conversion_hold_hours" integer DEFAULT 48 NOT NULL,
	"absence_cutoff_hours" integer DEFAULT 2 NOT NULL,
	"public_waitlist" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD COLUMN "withdrawn_from" date;--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD COLUMN "hold_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD COLUMN "held_for" text;--> statement-breakpoint
ALTER TABLE "enrolment_purchase_items" ADD CONSTRAINT "enrolment_purchase_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_purchase_items" ADD CONSTRAINT "enrolment_purchase_items_purchase_id_enrolment_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."enrolment_purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_purchase_items" ADD CONSTRAINT "enrolment_purchase_items_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_purchases" ADD CONSTRAINT "enrolment_purchases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_purchases" ADD CONSTRAINT "enrolment_purchases_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_settings" ADD CONSTRAINT "enrolment_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrolment_purchase_items_purchase" ON "enrolment_purchase_items" USING btree ("company_id","purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_purchase_items_enrolment" ON "enrolment_purchase_items" USING btree ("company_id","enrolment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_purchases_company_code" ON "enrolment_purchases" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "enrolment_purchases_parent" ON "enrolment_purchases" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "enrolment_purchases_hold" ON "enrolment_purchases" USING btree ("status","hold_expires_at");--> statement-breakpoint
CREATE INDEX "class_enrolments_session" ON "class_enrolments" USING btree ("company_id","session_id");--> statement-breakpoint
CREATE INDEX "class_enrolments_hold" ON "class_enrolments" USING btree ("status","hold_expires_at");