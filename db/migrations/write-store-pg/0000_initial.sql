CREATE TABLE "agent_discovery_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"phone" text NOT NULL,
	"npn" text NOT NULL,
	"licensed_states" text NOT NULL,
	"agency" text,
	"current_tools" text NOT NULL,
	"needs" text,
	"consent_version" text NOT NULL,
	"consented_at" bigint NOT NULL,
	"consent_ip" text NOT NULL,
	"source" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"object_key" text NOT NULL,
	"storage" text NOT NULL,
	"doc_type" text NOT NULL,
	"blank_confirmed" boolean NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"original_file_name" text NOT NULL,
	"uploader_ip" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "agent_uploads_object_key_unique" UNIQUE("object_key")
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"template" text NOT NULL,
	"recipient" text NOT NULL,
	"recipient_key" text NOT NULL,
	"payload" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_until" bigint,
	"provider" text,
	"message_id" text,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "enrollment_applications" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"access_token_hash" text NOT NULL,
	"plan_id" text NOT NULL,
	"plan_year" bigint NOT NULL,
	"state" text NOT NULL,
	"county_fips" text NOT NULL,
	"zip" text NOT NULL,
	"household" text NOT NULL,
	"annual_income_cents" bigint NOT NULL,
	"contact" text NOT NULL,
	"email_key" text NOT NULL,
	"attestation_version" text NOT NULL,
	"attested_at" bigint NOT NULL,
	"attestation_ip" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unsubscribes" (
	"email_key" text PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"unsubscribed_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waitlist_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"zip" text NOT NULL,
	"interest" text NOT NULL,
	"source" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_due" ON "email_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "outbox_subject" ON "email_outbox" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "outbox_recipient" ON "email_outbox" USING btree ("recipient_key");--> statement-breakpoint
CREATE INDEX "enrollment_email" ON "enrollment_applications" USING btree ("email_key");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_email_interest" ON "waitlist_submissions" USING btree ("email_key","interest");