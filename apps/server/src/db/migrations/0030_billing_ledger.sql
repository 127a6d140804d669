CREATE TABLE "billing_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"legal_name" text NOT NULL,
	"abn" text,
	"gst_registered" boolean DEFAULT true NOT NULL,
	"address" text,
	"invoice_prefix" text DEFAULT 'INV-' NOT NULL,
	"next_invoice_number" integer DEFAULT 1 NOT NULL,
	"next_credit_note_number" integer DEFAULT 1 NOT NULL,
	"days_until_due" integer DEFAULT 14 NOT NULL,
	"bank_account_name" text,
	"bsb" text,
	"bank_account_number" text,
	"late_fee_policy" text,
	"logo_path" text
);
--> statement-breakpoint
CREATE TABLE "billing_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"families" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"issued" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_by" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"number" integer NOT NULL,
	"code" text NOT NULL,
	"amount" integer NOT NULL,
	"gst" integer NOT NULL,
	"reason" text NOT NULL,
	"issued_on" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "family_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"credit_balance" integer DEFAULT 0 NOT NULL,
	"autopay" boolean DEFAULT false NOT NULL,
	"card_provider" text,
	"card_customer_ref" text,
	"card_ref" text,
	"card_brand" text,
	"card_last4" text,
	"card_exp_month" integer,
	"card_exp_year" integer,
	"card_saved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "family_credit_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"payment_id" integer,
	"refund_id" integer,
	"credit_note_id" integer,
	"invoice_id" integer,
	"source_key" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_instalments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"position" integer NOT NULL,
	"due_on" date NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_on" date,
	"last_error" text,
	"payment_id" integer,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"detail" text,
	"quantity" integer DEFAULT 1 NOT NULL,
	"unit_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"gst_free" boolean DEFAULT false NOT NULL,
	"gst" integer DEFAULT 0 NOT NULL,
	"enrolment_id" integer,
	"adjustment_id" integer,
	"purchase_kind" text,
	"purchase_id" integer,
	"voided" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"number" integer,
	"code" text,
	"source_key" text,
	"term_id" integer,
	"billing_run_id" integer,
	"buyer_name" text NOT NULL,
	"buyer_email" text NOT NULL,
	"gst_registered" boolean NOT NULL,
	"issued_on" date,
	"due_on" date,
	"total" integer DEFAULT 0 NOT NULL,
	"gst" integer DEFAULT 0 NOT NULL,
	"amount_paid" integer DEFAULT 0 NOT NULL,
	"amount_credited" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"void_reason" text
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"kind" text NOT NULL,
	"payment_id" integer,
	"refund_id" integer,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"parent_id" integer,
	"invoice_id" integer,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"destination" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider" text,
	"provider_refund_ref" text,
	"failure_reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "purchase_kind" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "purchase_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "provider" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "provider_ref" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "recorded_by" integer;--> statement-breakpoint
ALTER TABLE "class_types" ADD COLUMN "gst_free" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_accounts" ADD CONSTRAINT "family_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_accounts" ADD CONSTRAINT "family_accounts_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_credit_entries" ADD CONSTRAINT "family_credit_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_credit_entries" ADD CONSTRAINT "family_credit_entries_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_credit_entries" ADD CONSTRAINT "family_credit_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_instalments" ADD CONSTRAINT "invoice_instalments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_instalments" ADD CONSTRAINT "invoice_instalments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_profiles_company" ON "billing_profiles" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "billing_runs_term" ON "billing_runs" USING btree ("company_id","term_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_company_number" ON "credit_notes" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "credit_notes_invoice" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "family_accounts_parent" ON "family_accounts" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "family_credit_entries_parent" ON "family_credit_entries" USING btree ("company_id","parent_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "family_credit_entries_source" ON "family_credit_entries" USING btree ("company_id","source_key");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_instalments_position" ON "invoice_instalments" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE INDEX "invoice_instalments_due" ON "invoice_instalments" USING btree ("company_id","status","next_attempt_on");--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_enrolment_once" ON "invoice_lines" USING btree ("company_id","enrolment_id") WHERE "invoice_lines"."enrolment_id" is not null and not "invoice_lines"."voided";--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_adjustment_once" ON "invoice_lines" USING btree ("company_id","adjustment_id") WHERE "invoice_lines"."adjustment_id" is not null and not "invoice_lines"."voided";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_number" ON "invoices" USING btree ("company_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_source" ON "invoices" USING btree ("company_id","source_key");--> statement-breakpoint
CREATE INDEX "invoices_parent" ON "invoices" USING btree ("company_id","parent_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_company_status" ON "invoices" USING btree ("company_id","status","due_on");--> statement-breakpoint
CREATE INDEX "payment_allocations_invoice" ON "payment_allocations" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_payment" ON "payment_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_payment" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_company_created" ON "refunds" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_ref" ON "refunds" USING btree ("provider","provider_refund_ref");--> statement-breakpoint
-- Every payment names its family from now on; the card payments made so far take their purchase's parent.
UPDATE "payments" p SET "parent_id" = b."parent_id" FROM "bookings" b WHERE p."purchase_kind" = 'event' AND b."id" = p."purchase_id";--> statement-breakpoint
UPDATE "payments" p SET "parent_id" = b."parent_id" FROM "party_bookings" b WHERE p."purchase_kind" = 'party' AND b."id" = p."purchase_id";--> statement-breakpoint
UPDATE "payments" p SET "parent_id" = b."parent_id" FROM "enrolment_purchases" b WHERE p."purchase_kind" = 'enrolment' AND b."id" = p."purchase_id";--> statement-breakpoint
UPDATE "payments" p SET "parent_id" = b."parent_id" FROM "private_lesson_bookings" b WHERE p."purchase_kind" = 'private_lesson' AND b."id" = p."purchase_id";
