/**
 * Start-up refusals: settings under which the server must not serve at all. Each answer is
 * ONE line naming the setting, printed before anything else, and the process exits non-zero
 * (docs/decisions/150-fake-upstream-outside-the-bundle.md).
 *
 * Production (DEPLOY_ENV=production) never answers from made-up data: not from the sample CMS
 * API fake, not from a plan store built from the bundled sample, and it never seeds one.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Env } from "../app/server/platform/env.server";

export function isProduction(config: Pick<Env, "DEPLOY_ENV">): boolean {
  return config.DEPLOY_ENV.trim().toLowerCase() === "production";
}

/** Why the upstream settings cannot start a server, or null when they can. */
export function upstreamRefusal(config: Pick<Env, "DEPLOY_ENV" | "UPSTREAM" | "MARKETPLACE_API_KEY">): string | null {
  const production = isProduction(config);
  if (config.UPSTREAM === "fake") {
    return production
      ? "UPSTREAM=fake is refused with DEPLOY_ENV=production: the sample CMS API fake answers with made-up data; unset UPSTREAM and set MARKETPLACE_API_KEY."
      : null;
  }
  if (config.MARKETPLACE_API_KEY) return null;
  return production
    ? "MARKETPLACE_API_KEY is not set: a production start (DEPLOY_ENV=production) needs the CMS Marketplace API key."
    : "MARKETPLACE_API_KEY is not set: set it, or set UPSTREAM=fake to answer upstream calls from the sample CMS API fake (npm start does so outside production).";
}

/**
 * Why the plan store cannot serve production, or null when it can (or outside production,
 * where a missing store is reported by the pages and sample data is labelled as such).
 */
export function planStoreRefusal(config: Pick<Env, "DEPLOY_ENV" | "PLAN_STORE_PATH">): string | null {
  if (!isProduction(config)) return null;
  const file = path.resolve(config.PLAN_STORE_PATH);
  if (!existsSync(file)) {
    return `PLAN_STORE_PATH: no plan store at ${file}; load the real public-use files with \`npm run seed -- --source <dir>\` (a production start never seeds sample data).`;
  }
  let sample: string | undefined;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      // store_meta (db/plan-store.ts): seed/build-store.ts writes sample=1 for the bundled sample.
      const row = db.prepare("SELECT value FROM store_meta WHERE key = 'sample'").get() as
        { value: string } | undefined;
      sample = row?.value;
    } finally {
      db.close();
    }
  } catch (error) {
    return `PLAN_STORE_PATH: the plan store at ${file} cannot be read (${error instanceof Error ? error.message : String(error)}).`;
  }
  if (sample === "1") {
    return `PLAN_STORE_PATH: the plan store at ${file} holds the bundled sample data (made-up plans); a production start needs one loaded from the real public-use files.`;
  }
  return null;
}

/** The first refusal for these settings, or null when the server may start. */
export function startupRefusal(config: Env): string | null {
  return upstreamRefusal(config) ?? planStoreRefusal(config);
}
