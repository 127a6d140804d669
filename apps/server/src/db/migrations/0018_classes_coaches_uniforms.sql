CREATE TABLE "attendance" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"marked_by" integer,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_enrolments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"term_class_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"kind" text NOT NULL,
	"session_id" integer,
	"starts_on" date,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"term_class_id" integer NOT NULL,
	"slot_date" date NOT NULL,
	"date" date NOT NULL,
	"start_time" time NOT NULL,
	"duration_minutes" integer NOT NULL,
	"room_id" integer,
	"coach_id" integer,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"cancel_reason" text,
	"edited_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "class_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"level" text,
	"age_min_months" integer,
	"age_max_months" integer,
	"default_duration_minutes" integer DEFAULT 60 NOT NULL,
	"colour" text,
	"capacity_default" integer DEFAULT 10 NOT NULL,
	"pricing_model" text DEFAULT 'per_session' NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"trial_allowed" boolean DEFAULT false NOT NULL,
	"trial_price" integer,
	"makeup_allowed" boolean DEFAULT false NOT NULL,
	"makeup_expiry" text,
	"makeup_expiry_days" integer,
	"makeup_cap_per_term" integer,
	"gst" text DEFAULT 'taxable' NOT NULL,
	"uniform_type_id" integer,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "term_classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"name" text NOT NULL,
	"weekday" integer NOT NULL,
	"start_time" time NOT NULL,
	"duration_minutes" integer NOT NULL,
	"venue_id" integer,
	"room_id" integer,
	"lead_coach_id" integer,
	"assistant_coach_ids" integer[] DEFAULT '{}' NOT NULL,
	"capacity" integer NOT NULL,
	"age_min_months" integer,
	"age_max_months" integer,
	"level" text,
	"price_override" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "term_closures" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"reason" text NOT NULL,
	"kind" text DEFAULT 'closed' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"region" text,
	"priority_enrolment_opens_at" timestamp with time zone,
	"public_enrolment_opens_at" timestamp with time zone,
	"status" text DEFAULT 'draft' NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "coach_leaves" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"coach_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "coach_private_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"coach_id" integer NOT NULL,
	"weekday" integer NOT NULL,
	"start_time" time NOT NULL,
	"duration_minutes" integer NOT NULL,
	"max_children" integer DEFAULT 1 NOT NULL,
	"price" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coach_uniforms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"coach_id" integer NOT NULL,
	"uniform_type_id" integer NOT NULL,
	"size" text,
	"issued_on" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coaches" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"phone" text,
	"qualifications" text,
	"wwcc_number" text,
	"wwcc_verified_on" date,
	"wwcc_outcome" text,
	"wwcc_expires_on" date,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "uniform_sizes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"uniform_type_id" integer NOT NULL,
	"name" text NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uniform_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD CONSTRAINT "class_enrolments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD CONSTRAINT "class_enrolments_term_class_id_term_classes_id_fk" FOREIGN KEY ("term_class_id") REFERENCES "public"."term_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD CONSTRAINT "class_enrolments_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD CONSTRAINT "class_enrolments_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_term_class_id_term_classes_id_fk" FOREIGN KEY ("term_class_id") REFERENCES "public"."term_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_types" ADD CONSTRAINT "class_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_types" ADD CONSTRAINT "class_types_uniform_type_id_uniform_types_id_fk" FOREIGN KEY ("uniform_type_id") REFERENCES "public"."uniform_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_classes" ADD CONSTRAINT "term_classes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_classes" ADD CONSTRAINT "term_classes_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_classes" ADD CONSTRAINT "term_classes_class_type_id_class_types_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_classes" ADD CONSTRAINT "term_classes_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_classes" ADD CONSTRAINT "term_classes_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_classes" ADD CONSTRAINT "term_classes_lead_coach_id_coaches_id_fk" FOREIGN KEY ("lead_coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_closures" ADD CONSTRAINT "term_closures_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_closures" ADD CONSTRAINT "term_closures_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms" ADD CONSTRAINT "terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_leaves" ADD CONSTRAINT "coach_leaves_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_leaves" ADD CONSTRAINT "coach_leaves_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_private_slots" ADD CONSTRAINT "coach_private_slots_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_private_slots" ADD CONSTRAINT "coach_private_slots_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_uniforms" ADD CONSTRAINT "coach_uniforms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_uniforms" ADD CONSTRAINT "coach_uniforms_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_uniforms" ADD CONSTRAINT "coach_uniforms_uniform_type_id_uniform_types_id_fk" FOREIGN KEY ("uniform_type_id") REFERENCES "public"."uniform_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaches" ADD CONSTRAINT "coaches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaches" ADD CONSTRAINT "coaches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_sizes" ADD CONSTRAINT "uniform_sizes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_sizes" ADD CONSTRAINT "uniform_sizes_uniform_type_id_uniform_types_id_fk" FOREIGN KEY ("uniform_type_id") REFERENCES "public"."uniform_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_types" ADD CONSTRAINT "uniform_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_session_child" ON "attendance" USING btree ("company_id","session_id","child_id");--> statement-breakpoint
CREATE INDEX "class_enrolments_class" ON "class_enrolments" USING btree ("company_id","term_class_id","status");--> statement-breakpoint
CREATE INDEX "class_enrolments_child" ON "class_enrolments" USING btree ("company_id","child_id");--> statement-breakpoint
CREATE UNIQUE INDEX "class_sessions_slot" ON "class_sessions" USING btree ("company_id","term_class_id","slot_date");--> statement-breakpoint
CREATE INDEX "class_sessions_day" ON "class_sessions" USING btree ("company_id","date","start_time");--> statement-breakpoint
CREATE INDEX "class_sessions_coach" ON "class_sessions" USING btree ("company_id","coach_id","date");--> statement-breakpoint
CREATE INDEX "class_types_company" ON "class_types" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "term_classes_term" ON "term_classes" USING btree ("company_id","term_id","weekday","start_time");--> statement-breakpoint
CREATE INDEX "term_closures_term" ON "term_closures" USING btree ("company_id","term_id","start_date");--> statement-breakpoint
CREATE INDEX "terms_company" ON "terms" USING btree ("company_id","start_date");--> statement-breakpoint
CREATE INDEX "coach_leaves_coach" ON "coach_leaves" USING btree ("company_id","coach_id","start_date");--> statement-breakpoint
CREATE INDEX "coach_private_slots_coach" ON "coach_private_slots" USING btree ("company_id","coach_id");--> statement-breakpoint
CREATE INDEX "coach_uniforms_coach" ON "coach_uniforms" USING btree ("company_id","coach_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coaches_company_user" ON "coaches" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "uniform_sizes_type" ON "uniform_sizes" USING btree ("company_id","uniform_type_id");--> statement-breakpoint
CREATE INDEX "uniform_types_company" ON "uniform_types" USING btree ("company_id","name");