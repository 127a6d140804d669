CREATE TABLE "enrolment_adjustments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"child_name" text NOT NULL,
	"term_class_id" integer NOT NULL,
	"enrolment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "enrolment_adjustments" ADD CONSTRAINT "enrolment_adjustments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_adjustments" ADD CONSTRAINT "enrolment_adjustments_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_adjustments" ADD CONSTRAINT "enrolment_adjustments_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_adjustments" ADD CONSTRAINT "enrolment_adjustments_term_class_id_term_classes_id_fk" FOREIGN KEY ("term_class_id") REFERENCES "public"."term_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_adjustments" ADD CONSTRAINT "enrolment_adjustments_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_adjustments" ADD CONSTRAINT "enrolment_adjustments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrolment_adjustments_company" ON "enrolment_adjustments" USING btree ("company_id","status","created_at");--> statement-breakpoint
CREATE INDEX "enrolment_adjustments_parent" ON "enrolment_adjustments" USING btree ("company_id","parent_id");