ALTER TABLE "registration_forms" ADD COLUMN "ask_questions" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_forms" ADD COLUMN "required_questions" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_forms" ADD COLUMN "custom_questions" text;