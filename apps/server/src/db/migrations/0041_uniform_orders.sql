CREATE TABLE "uniform_order_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"size_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uniform_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"reference" text NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"paid_how" text NOT NULL,
	"subtotal" integer NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"surcharge" integer DEFAULT 0 NOT NULL,
	"amount_due" integer NOT NULL,
	"coupon_code" text,
	"invoice_id" integer,
	"payment_id" integer,
	"hold_expires_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"collected_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "uniform_orders_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "uniform_types" ADD COLUMN "invoice_allowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "uniform_order_lines" ADD CONSTRAINT "uniform_order_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_order_lines" ADD CONSTRAINT "uniform_order_lines_order_id_uniform_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."uniform_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_order_lines" ADD CONSTRAINT "uniform_order_lines_size_id_uniform_sizes_id_fk" FOREIGN KEY ("size_id") REFERENCES "public"."uniform_sizes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_orders" ADD CONSTRAINT "uniform_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_orders" ADD CONSTRAINT "uniform_orders_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uniform_orders" ADD CONSTRAINT "uniform_orders_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uniform_order_lines_order" ON "uniform_order_lines" USING btree ("company_id","order_id");--> statement-breakpoint
CREATE INDEX "uniform_order_lines_size" ON "uniform_order_lines" USING btree ("company_id","size_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uniform_orders_company_code" ON "uniform_orders" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "uniform_orders_parent" ON "uniform_orders" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "uniform_orders_child" ON "uniform_orders" USING btree ("company_id","child_id");