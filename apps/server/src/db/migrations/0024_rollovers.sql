CREATE TABLE "rollover_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"rollover_id" integer NOT NULL,
	"from_enrolment_id" integer NOT NULL,
	"to_enrolment_id" integer NOT NULL,
	"to_term_id" integer NOT NULL,
	"to_class_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"hold_token" text NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rollovers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"from_term_id" integer NOT NULL,
	"to_term_id" integer NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_rollover_id_rollovers_id_fk" FOREIGN KEY ("rollover_id") REFERENCES "public"."rollovers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_from_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("from_enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_to_enrolment_id_class_enrolments_id_fk" FOREIGN KEY ("to_enrolment_id") REFERENCES "public"."class_enrolments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_to_term_id_terms_id_fk" FOREIGN KEY ("to_term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_to_class_id_term_classes_id_fk" FOREIGN KEY ("to_class_id") REFERENCES "public"."term_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollover_items" ADD CONSTRAINT "rollover_items_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollovers" ADD CONSTRAINT "rollovers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollovers" ADD CONSTRAINT "rollovers_from_term_id_terms_id_fk" FOREIGN KEY ("from_term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollovers" ADD CONSTRAINT "rollovers_to_term_id_terms_id_fk" FOREIGN KEY ("to_term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollovers" ADD CONSTRAINT "rollovers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rollover_items_once" ON "rollover_items" USING btree ("company_id","from_enrolment_id","to_term_id") WHERE undone_at is null;--> statement-breakpoint
CREATE INDEX "rollover_items_run" ON "rollover_items" USING btree ("company_id","rollover_id");--> statement-breakpoint
CREATE INDEX "rollover_items_parent" ON "rollover_items" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rollovers_live_pair" ON "rollovers" USING btree ("company_id","from_term_id","to_term_id") WHERE status <> 'undone';--> statement-breakpoint
CREATE INDEX "rollovers_to_term" ON "rollovers" USING btree ("company_id","to_term_id");