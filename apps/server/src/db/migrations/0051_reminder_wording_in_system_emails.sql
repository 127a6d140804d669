ALTER TABLE "reminder_rules" DROP COLUMN "subject";--> statement-breakpoint
ALTER TABLE "reminder_rules" DROP COLUMN "body";