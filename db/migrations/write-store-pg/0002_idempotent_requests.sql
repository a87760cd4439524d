CREATE TABLE "idempotent_requests" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"fingerprint" text NOT NULL,
	"subject_id" text NOT NULL,
	"created_at" bigint NOT NULL
);
