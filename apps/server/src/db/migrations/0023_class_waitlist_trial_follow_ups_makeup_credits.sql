CREATE TABLE "class_waitlist" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"term_class_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"household_key" text NOT NULL,
	"any_number" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"enrolment_id" integer,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_follow_ups" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"trial_enrolment_id" integer NOT NULL,
	"hold_enrolment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "makeup_credits" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"reason" text NOT NULL,
	"session_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"level" text,
	"expires_on" date NOT NULL,
	"used_at" timestamp with time zone,
	"used_enrolment_id" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "class_waitlist" ADD CONSTRAINT "class_waitlist_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_waitlist" ADD CONSTRAINT "class_waitlist_term_class_id_term_classes_id_fk" FOREIGN KEY ("term_class_id") REFERENCES "public"."term_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_waitlist" ADD CONSTRAINT "class_waitlist_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_waitlist" ADD CONSTRAINT "class_waitlist_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_waitlist" ADD CONSTRAINT "class_waitlist_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_follow_ups" ADD CONSTRAINT "trial_follow_ups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_follow_ups" ADD CONSTRAINT "trial_follow_ups_trial_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("trial_enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_follow_ups" ADD CONSTRAINT "trial_follow_ups_hold_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("hold_enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makeup_credits" ADD CONSTRAINT "makeup_credits_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makeup_credits" ADD CONSTRAINT "makeup_credits_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makeup_credits" ADD CONSTRAINT "makeup_credits_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makeup_credits" ADD CONSTRAINT "makeup_credits_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makeup_credits" ADD CONSTRAINT "makeup_credits_class_type_id_class_types_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makeup_credits" ADD CONSTRAINT "makeup_credits_used_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("used_enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_waitlist_class" ON "class_waitlist" USING btree ("company_id","term_class_id","status","created_at");--> statement-breakpoint
CREATE INDEX "class_waitlist_enrolment" ON "class_waitlist" USING btree ("company_id","enrolment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trial_follow_ups_trial" ON "trial_follow_ups" USING btree ("company_id","trial_enrolment_id");--> statement-breakpoint
CREATE INDEX "makeup_credits_child" ON "makeup_credits" USING btree ("company_id","child_id","expires_on");--> statement-breakpoint
CREATE UNIQUE INDEX "makeup_credits_live" ON "makeup_credits" USING btree ("company_id","child_id","session_id") WHERE "makeup_credits"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "makeup_credits_enrolment" ON "makeup_credits" USING btree ("company_id","used_enrolment_id");