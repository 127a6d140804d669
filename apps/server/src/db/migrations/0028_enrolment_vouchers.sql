CREATE TABLE "enrolment_vouchers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"period" text NOT NULL,
	"code" text NOT NULL,
	"purchase_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enrolment_vouchers" ADD CONSTRAINT "enrolment_vouchers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_vouchers" ADD CONSTRAINT "enrolment_vouchers_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_vouchers" ADD CONSTRAINT "enrolment_vouchers_purchase_id_enrolment_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."enrolment_purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_vouchers_child_period" ON "enrolment_vouchers" USING btree ("company_id","child_id","period");