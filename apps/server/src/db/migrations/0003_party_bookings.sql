CREATE TABLE "party_bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"slot_id" integer NOT NULL,
	"date" date NOT NULL,
	"child_id" integer NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"guests" integer NOT NULL,
	"pricing" jsonb NOT NULL,
	"total" integer NOT NULL,
	"deposit" integer NOT NULL,
	"balance" integer NOT NULL,
	"coupon_code" text,
	"provider" text NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "party_bookings_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "party_guests" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"party_booking_id" integer NOT NULL,
	"position" integer NOT NULL,
	"child_name" text NOT NULL,
	"parent_name" text,
	"parent_email" text,
	"parent_phone" text,
	"invited_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "booking_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "party_booking_id" integer;--> statement-breakpoint
ALTER TABLE "party_bookings" ADD CONSTRAINT "party_bookings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_bookings" ADD CONSTRAINT "party_bookings_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_bookings" ADD CONSTRAINT "party_bookings_slot_id_party_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."party_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_bookings" ADD CONSTRAINT "party_bookings_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_guests" ADD CONSTRAINT "party_guests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_guests" ADD CONSTRAINT "party_guests_party_booking_id_party_bookings_id_fk" FOREIGN KEY ("party_booking_id") REFERENCES "public"."party_bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "party_bookings_slot_date" ON "party_bookings" USING btree ("company_id","slot_id","date");--> statement-breakpoint
CREATE INDEX "party_bookings_parent" ON "party_bookings" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "party_guests_position" ON "party_guests" USING btree ("party_booking_id","position");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_party_booking_id_party_bookings_id_fk" FOREIGN KEY ("party_booking_id") REFERENCES "public"."party_bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_party_booking" ON "payments" USING btree ("party_booking_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_one_purpose" CHECK (("payments"."booking_id" is null) <> ("payments"."party_booking_id" is null));