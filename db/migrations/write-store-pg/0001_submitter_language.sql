ALTER TABLE "agent_discovery_submissions" ADD COLUMN "lang" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "waitlist_submissions" ADD COLUMN "lang" text DEFAULT 'en' NOT NULL;