CREATE TABLE "reminder_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"amount" integer NOT NULL,
	"subject" text,
	"body" text,
	"active_from" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"occasion_key" text NOT NULL,
	"recipient" text NOT NULL,
	"summary" text NOT NULL,
	"mail_id" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reminder_rules" ADD CONSTRAINT "reminder_rules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD CONSTRAINT "reminder_sends_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_rules_kind" ON "reminder_rules" USING btree ("company_id","kind");--> statement-breakpoint
CREATE INDEX "reminder_rules_enabled" ON "reminder_rules" USING btree ("enabled");--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_sends_once" ON "reminder_sends" USING btree ("company_id","kind","occasion_key","recipient");--> statement-breakpoint
CREATE INDEX "reminder_sends_recent" ON "reminder_sends" USING btree ("company_id","sent_at");