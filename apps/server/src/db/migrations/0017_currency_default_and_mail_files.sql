ALTER TABLE "companies" ALTER COLUMN "currency" SET DEFAULT 'USD';--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "file" text;