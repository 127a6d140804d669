CREATE TABLE "invoice_checkouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"instalment_id" integer,
	"made_plan" boolean DEFAULT false NOT NULL,
	"amount" integer NOT NULL,
	"surcharge" integer DEFAULT 0 NOT NULL,
	"amount_due" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference" text NOT NULL,
	"code" text NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoice_checkouts" ADD CONSTRAINT "invoice_checkouts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_checkouts" ADD CONSTRAINT "invoice_checkouts_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_checkouts" ADD CONSTRAINT "invoice_checkouts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_checkouts" ADD CONSTRAINT "invoice_checkouts_instalment_id_invoice_instalments_id_fk" FOREIGN KEY ("instalment_id") REFERENCES "public"."invoice_instalments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_checkouts_reference" ON "invoice_checkouts" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_checkouts_company_code" ON "invoice_checkouts" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "invoice_checkouts_invoice" ON "invoice_checkouts" USING btree ("company_id","invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_checkouts_pending" ON "invoice_checkouts" USING btree ("status","hold_expires_at");