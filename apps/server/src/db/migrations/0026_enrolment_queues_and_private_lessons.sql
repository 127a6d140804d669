CREATE TABLE "enrolment_queue_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"number" integer NOT NULL,
	"token_hash" text NOT NULL,
	"admit_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrolment_queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"admit_per_second" integer NOT NULL,
	"admitted_for_minutes" integer NOT NULL,
	"issued" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "private_lesson_bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"slot_id" integer NOT NULL,
	"coach_id" integer NOT NULL,
	"date" date NOT NULL,
	"start_time" time NOT NULL,
	"duration_minutes" integer NOT NULL,
	"reference" text NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"price" integer NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"surcharge" integer DEFAULT 0 NOT NULL,
	"amount_due" integer NOT NULL,
	"coupon_code" text,
	"provider" text NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	"refund_choice" text,
	CONSTRAINT "private_lesson_bookings_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "private_lesson_children" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"booking_id" integer NOT NULL,
	"child_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "private_lesson_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"cancel_hours_before" integer DEFAULT 24 NOT NULL,
	"cancel_outcome" text DEFAULT 'credit' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enrolment_queue_tickets" ADD CONSTRAINT "enrolment_queue_tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_queue_tickets" ADD CONSTRAINT "enrolment_queue_tickets_queue_id_enrolment_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."enrolment_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_queues" ADD CONSTRAINT "enrolment_queues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_bookings" ADD CONSTRAINT "private_lesson_bookings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_bookings" ADD CONSTRAINT "private_lesson_bookings_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_bookings" ADD CONSTRAINT "private_lesson_bookings_slot_id_coach_private_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."coach_private_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_bookings" ADD CONSTRAINT "private_lesson_bookings_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_children" ADD CONSTRAINT "private_lesson_children_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_children" ADD CONSTRAINT "private_lesson_children_booking_id_private_lesson_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."private_lesson_bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_children" ADD CONSTRAINT "private_lesson_children_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_lesson_settings" ADD CONSTRAINT "private_lesson_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_queue_tickets_token" ON "enrolment_queue_tickets" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_queue_tickets_number" ON "enrolment_queue_tickets" USING btree ("queue_id","number");--> statement-breakpoint
CREATE INDEX "enrolment_queue_tickets_company" ON "enrolment_queue_tickets" USING btree ("company_id","queue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_queues_opening" ON "enrolment_queues" USING btree ("company_id","opens_at");--> statement-breakpoint
CREATE UNIQUE INDEX "private_lesson_bookings_live" ON "private_lesson_bookings" USING btree ("company_id","slot_id","date") WHERE status in ('pending', 'confirmed');--> statement-breakpoint
CREATE UNIQUE INDEX "private_lesson_bookings_company_code" ON "private_lesson_bookings" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "private_lesson_bookings_parent" ON "private_lesson_bookings" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "private_lesson_bookings_coach_date" ON "private_lesson_bookings" USING btree ("company_id","coach_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "private_lesson_children_booking_child" ON "private_lesson_children" USING btree ("booking_id","child_id");--> statement-breakpoint
CREATE UNIQUE INDEX "private_lesson_settings_company" ON "private_lesson_settings" USING btree ("company_id");