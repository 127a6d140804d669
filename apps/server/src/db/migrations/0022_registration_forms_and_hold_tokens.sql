CREATE TABLE "embed_origins" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"origin" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_anomalies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"form_id" integer,
	"kind" text NOT NULL,
	"parent_id" integer NOT NULL,
	"child_id" integer,
	"term_class_id" integer,
	"purchase_id" integer,
	"other_id" integer,
	"detail" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"intro" text,
	"term_ids" integer[] DEFAULT '{}' NOT NULL,
	"class_type_ids" integer[] DEFAULT '{}' NOT NULL,
	"age_min_months" integer,
	"age_max_months" integer,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"waiver_id" integer,
	"payment_terms_id" integer,
	"trials_offered" boolean DEFAULT false NOT NULL,
	"payment" text DEFAULT 'card' NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "class_enrolments" ADD COLUMN "hold_token" text;--> statement-breakpoint
ALTER TABLE "embed_origins" ADD CONSTRAINT "embed_origins_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_anomalies" ADD CONSTRAINT "registration_anomalies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_anomalies" ADD CONSTRAINT "registration_anomalies_form_id_registration_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."registration_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_anomalies" ADD CONSTRAINT "registration_anomalies_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_anomalies" ADD CONSTRAINT "registration_anomalies_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_forms" ADD CONSTRAINT "registration_forms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "embed_origins_origin" ON "embed_origins" USING btree ("company_id","origin");--> statement-breakpoint
CREATE INDEX "registration_anomalies_open" ON "registration_anomalies" USING btree ("company_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "registration_forms_key" ON "registration_forms" USING btree ("company_id","key");--> statement-breakpoint
CREATE INDEX "class_enrolments_hold_token" ON "class_enrolments" USING btree ("hold_token");