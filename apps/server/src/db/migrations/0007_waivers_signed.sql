CREATE TABLE "signed_waivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"waiver_id" integer NOT NULL,
	"waiver_version" integer NOT NULL,
	"waiver_title" text NOT NULL,
	"body_html" text NOT NULL,
	"child_id" integer,
	"party_guest_id" integer,
	"parent_id" integer,
	"child_first_name" text NOT NULL,
	"child_last_name" text NOT NULL,
	"child_dob" date NOT NULL,
	"answers" jsonb NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text,
	"signature_png" "bytea" NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"content_hash" text NOT NULL,
	CONSTRAINT "signed_waivers_one_person" CHECK (("signed_waivers"."child_id" is null) <> ("signed_waivers"."party_guest_id" is null))
);
--> statement-breakpoint
CREATE TABLE "waiver_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"subject" text NOT NULL,
	"signed_waiver_id" integer NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "party_guests" ADD COLUMN "waiver_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "children" ADD COLUMN "insurance_type" text;--> statement-breakpoint
ALTER TABLE "signed_waivers" ADD CONSTRAINT "signed_waivers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_waivers" ADD CONSTRAINT "signed_waivers_waiver_id_waivers_id_fk" FOREIGN KEY ("waiver_id") REFERENCES "public"."waivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_waivers" ADD CONSTRAINT "signed_waivers_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_waivers" ADD CONSTRAINT "signed_waivers_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiver_uses" ADD CONSTRAINT "waiver_uses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiver_uses" ADD CONSTRAINT "waiver_uses_signed_waiver_id_signed_waivers_id_fk" FOREIGN KEY ("signed_waiver_id") REFERENCES "public"."signed_waivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signed_waivers_child" ON "signed_waivers" USING btree ("company_id","child_id","waiver_id","waiver_version");--> statement-breakpoint
CREATE INDEX "signed_waivers_guest_email" ON "signed_waivers" USING btree ("company_id","signer_email");--> statement-breakpoint
CREATE UNIQUE INDEX "waiver_uses_subject" ON "waiver_uses" USING btree ("company_id","subject");--> statement-breakpoint
ALTER TABLE "party_guests" ADD CONSTRAINT "party_guests_waiverToken_unique" UNIQUE("waiver_token");