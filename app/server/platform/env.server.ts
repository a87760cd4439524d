import { z } from "zod";

/**
 * The service's configuration: every setting, parsed from process.env once at
 * start-up. `.env.example` lists each one with its meaning; keep them in step.
 *
 * The parsed object lives on globalThis because server.ts (run by tsx) and the
 * Remix server bundle each load their own copy of this module; both must see
 * one configuration and print start-up warnings once.
 */

export const EMAIL_PROVIDERS = ["resend", "ses"] as const;

/** Trim whitespace and a trailing literal backslash-n (a common copy-paste
 * artefact in secret stores) from a secret. */
export function sanitizeSecret(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let v = value.trim();
  while (v.endsWith("\\n")) v = v.slice(0, -2).trimEnd();
  return v;
}

const secret = z
  .string()
  .optional()
  .transform((v) => sanitizeSecret(v));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const booleanFlag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && ["1", "true", "yes", "on"].includes(v.trim().toLowerCase()));

const EnvSchema = z.object({
  NODE_ENV: z.string().optional().default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DEPLOY_ENV: z.string().trim().min(1).default("development"),
  COMMIT_SHA: optionalText,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_BASE_URL: optionalText,

  // Upstream CMS Marketplace API
  MARKETPLACE_API_KEY: secret,
  MARKETPLACE_API_BASE_URL: optionalText,
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  UPSTREAM_MAX_CONCURRENCY: z.coerce.number().int().positive().default(16),
  // The key's upstream limits (the real API: 1,000 a minute, 200 a second); the budget keeps 10 % under them.
  UPSTREAM_CALLS_PER_MINUTE: z.coerce.number().int().positive().default(1000),
  UPSTREAM_CALLS_PER_SECOND: z.coerce.number().int().positive().default(200),
  // "fake": answer upstream calls from the sample CMS API fake (mocks/cms-api), never in
  // production. `npm start` / `npm run dev` set it outside production when no key is configured.
  UPSTREAM: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim().toLowerCase()))
    .pipe(z.enum(["fake"]).optional()),
  // "1" when upstream answers come from the sample fake (set by server.ts when it starts the fake).
  UPSTREAM_IS_SAMPLE: booleanFlag,

  // Stores
  PLAN_STORE_PATH: z.string().default("data/plan-store.sqlite"),
  // The published plan store (s3://bucket/key, decision 290): every process polls its version
  // marker and swaps a new, checked version in; unset = the local file only, as a reseed leaves it.
  PLAN_STORE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/.+$/, "must look like s3://bucket/key")
      .optional(),
  ),
  PLAN_STORE_POLL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  // An S3-compatible endpoint (MinIO, tests) for PLAN_STORE_URL; unset = AWS S3 in PLAN_STORE_S3_REGION.
  PLAN_STORE_S3_ENDPOINT: optionalText,
  PLAN_STORE_S3_REGION: z.string().default("us-east-1"),
  // Kept as given (possibly empty): an empty value must make the write routes
  // fail loudly, never fall back silently.
  DATABASE_URL: z.string().optional(),
  // PostgreSQL connections per process when DATABASE_URL is postgres:// (decision 190).
  PG_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  // How long a claimed outbox row is reserved for the worker that claimed it (decision 062).
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  // Shared state (rate rule, upstream budget, caches) across processes (decision 191); unset = in-process.
  REDIS_URL: optionalText,
  // Server processes on one port (node:cluster): a number or "auto" (= cores). Read by server/cluster.ts.
  WORKERS: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? "1" : v.trim().toLowerCase()))
    .pipe(z.string().regex(/^(auto|[1-9]\d{0,2})$/, { error: 'WORKERS must be a whole number (1-999) or "auto"' })),

  // Email
  EMAIL_PROVIDER: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? "resend" : v.trim().toLowerCase()))
    .pipe(z.enum(EMAIL_PROVIDERS)),
  EMAIL_FROM: z.string().default("Health Plan Marketplace <hello@marketplace.example>"),
  EMAIL_FROM_DOMAIN: optionalText,
  OPERATIONS_EMAIL: z.string().default("operations@marketplace.example"),
  RESEND_API_KEY: secret,
  RESEND_AUDIENCE_ID: optionalText,
  SES_REGION: z.string().default("us-east-1"),
  SES_ENDPOINT: optionalText,
  UNSUBSCRIBE_TOKEN_SECRET: secret,

  // Legal pages (issue 28 item 8, docs/decisions/353): who runs the site, how to reach them, since
  // when the pages hold, and how long each kind of record is kept (days).
  LEGAL_OPERATOR: z.string().trim().min(1).default("the operator of Health Plan Marketplace"),
  LEGAL_CONTACT: optionalText,
  LEGAL_EFFECTIVE_DATE: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .default("2026-11-27"),
  RETENTION_WAITLIST_DAYS: z.coerce.number().int().positive().default(730),
  RETENTION_DISCOVERY_DAYS: z.coerce.number().int().positive().default(730),
  RETENTION_UPLOADS_DAYS: z.coerce.number().int().positive().default(365),
  RETENTION_LOGS_DAYS: z.coerce.number().int().positive().default(30),
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().positive().default(90),

  // Analytics
  POSTHOG_API_KEY: secret,
  POSTHOG_HOST: z.string().default("https://us.i.posthog.com"),
  ANALYTICS_OPT_OUT_HOSTS: z.string().default("staging.marketplace.example"),

  // Uploads
  UPLOAD_BUCKET: optionalText,
  UPLOAD_S3_ENDPOINT: optionalText,
  UPLOAD_S3_REGION: z.string().default("us-east-1"),
  UPLOAD_LOCAL_DIR: z.string().default("data/uploads"),
  // Upload bodies held in memory at once, by their declared size (docs/decisions/518).
  UPLOAD_MEMORY_MB: z.coerce.number().int().positive().default(64),

  // Edge protection
  TRUST_PROXY: booleanFlag,
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(2000),
  RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
});

export type Env = z.infer<typeof EnvSchema> & { warnings: string[] };

/** Thrown when start-up must stop; the message lists every bad setting. */
export class ConfigurationError extends Error {}

const UPSTREAM_KEY_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join(".");
      if (name === "UPSTREAM") return `UPSTREAM must be "fake" or unset (got "${String(source.UPSTREAM)}")`;
      if (name === "EMAIL_PROVIDER") {
        return `EMAIL_PROVIDER must be one of: ${EMAIL_PROVIDERS.join(", ")} (got "${String(source.EMAIL_PROVIDER)}")`;
      }
      return `${name}: ${issue.message}`;
    });
    throw new ConfigurationError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const env = result.data;
  const warnings: string[] = [];
  if (source.MARKETPLACE_API_KEY !== undefined) {
    if (!env.MARKETPLACE_API_KEY) {
      // Without UPSTREAM=fake the server refuses to start instead (server/startup-checks.ts).
      if (env.UPSTREAM === "fake") {
        warnings.push(
          "MARKETPLACE_API_KEY is set but empty: upstream calls would fail; using the sample fake upstream instead.",
        );
      }
    } else if (!UPSTREAM_KEY_SHAPE.test(env.MARKETPLACE_API_KEY)) {
      warnings.push(
        "MARKETPLACE_API_KEY looks malformed (expected 16-128 letters, digits, '-' or '_'): upstream calls may be rejected.",
      );
    }
  }
  if (!env.UNSUBSCRIBE_TOKEN_SECRET) {
    warnings.push(
      "UNSUBSCRIBE_TOKEN_SECRET is not set: /api/unsubscribe answers 503 and emails carry no unsubscribe link.",
    );
  }
  if (source.DATABASE_URL !== undefined && source.DATABASE_URL.trim() === "") {
    warnings.push(
      "DATABASE_URL is set but empty: write routes (waitlist, agent discovery, enrollment) will answer 500.",
    );
  }
  return { ...env, warnings };
}

const GLOBAL_KEY = Symbol.for("marketplace.env");
type GlobalWithEnv = typeof globalThis & { [GLOBAL_KEY]?: Env };

/** The configuration, parsed on first use and shared process-wide. */
export function env(): Env {
  const g = globalThis as GlobalWithEnv;
  if (!g[GLOBAL_KEY]) g[GLOBAL_KEY] = parseEnv();
  return g[GLOBAL_KEY];
}

/** Tests only: forget the parsed configuration so a changed process.env is read. */
export function resetEnvForTests(): void {
  delete (globalThis as GlobalWithEnv)[GLOBAL_KEY];
}

/** Whether upstream answers come from the sample fake (UPSTREAM=fake). */
export function usesSampleUpstream(e: Env = env()): boolean {
  return e.UPSTREAM_IS_SAMPLE;
}
