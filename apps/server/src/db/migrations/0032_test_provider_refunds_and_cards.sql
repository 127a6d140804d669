CREATE TABLE "test_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"customer_ref" text NOT NULL,
	"last4" text NOT NULL,
	"declines_charges" boolean NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"card_ref" text NOT NULL,
	"customer_ref" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"reference" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"payment_ref" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "test_checkouts" ADD COLUMN "mode" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_checkouts" ADD COLUMN "customer_ref" text;--> statement-breakpoint
ALTER TABLE "test_checkouts" ADD COLUMN "card_ref" text;--> statement-breakpoint
ALTER TABLE "test_cards" ADD CONSTRAINT "test_cards_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_charges" ADD CONSTRAINT "test_charges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_refunds" ADD CONSTRAINT "test_refunds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "test_charges_idempotency_key" ON "test_charges" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "test_refunds_idempotency_key" ON "test_refunds" USING btree ("company_id","idempotency_key");