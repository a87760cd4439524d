import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { forgetSingleton } from "../../../app/server/platform/lifecycle.server";
import { resetWriteStoreForTests } from "../../../app/server/intake/write-store.server";
import { planStore } from "../../../app/server/plan-store/plan-store.server";
import { TEST_PLAN_STORE } from "../../helpers/server";
import * as uploadRoute from "../../../app/routes/api.agents.discovery.upload";
import { pdf } from "./files";

/**
 * Shared set-up for the intake tests: a scratch directory per test file with
 * its own write store and upload directory, settings applied to process.env
 * (and the parsed configuration reset), and a way to call a route module with
 * a real Request.
 */

export const TEST_UNSUBSCRIBE_SECRET = "unsubscribe-secret-for-tests-0123456789";
export const OPERATIONS_EMAIL = "ops@marketplace.test";

export interface IntakeSandbox {
  dir: string;
  dbFile: string;
  uploadDir: string;
  /** Apply settings (undefined deletes) and reset the parsed configuration and open stores. */
  configure(settings: Record<string, string | undefined>): Promise<void>;
  /** A read-only look at the write store file, independent of the service's connection. */
  query<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T[];
  /** Wait until the outbox has nothing pending or in flight (every send has a result). */
  settleOutbox(timeoutMs?: number): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createIntakeSandbox(settings: Record<string, string | undefined> = {}): Promise<IntakeSandbox> {
  const saved = { ...process.env };
  const dir = mkdtempSync(path.join(os.tmpdir(), "intake-test-"));
  const dbFile = path.join(dir, "app.db");
  const uploadDir = path.join(dir, "uploads");
  const base: Record<string, string | undefined> = {
    DATABASE_URL: `file:${dbFile}`,
    UPLOAD_LOCAL_DIR: uploadDir,
    UPLOAD_BUCKET: undefined,
    UNSUBSCRIBE_TOKEN_SECRET: TEST_UNSUBSCRIBE_SECRET,
    EMAIL_PROVIDER: "resend",
    EMAIL_FROM: "Health Plan Marketplace <hello@marketplace.example>",
    EMAIL_FROM_DOMAIN: undefined,
    OPERATIONS_EMAIL,
    RESEND_API_KEY: "re_test_key",
    RESEND_AUDIENCE_ID: undefined,
    RESEND_BASE_URL: "http://127.0.0.1:9",
    POSTHOG_API_KEY: undefined,
    DEPLOY_ENV: "test",
    PUBLIC_BASE_URL: "https://marketplace.test",
    LOG_LEVEL: "silent",
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
    AWS_REGION: "us-east-1",
  };
  const apply = async (values: Record<string, string | undefined>) => {
    await resetWriteStoreForTests();
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnvForTests();
    forgetSingleton("logger");
  };
  await apply({ ...base, ...settings });
  const query = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Database(dbFile, { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  return {
    dir,
    dbFile,
    uploadDir,
    configure: apply,
    query,
    async settleOutbox(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      if (!existsSync(dbFile)) return;
      for (;;) {
        const [row] = query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM email_outbox WHERE status IN ('pending', 'sending')",
        );
        if (!row || row.n === 0) return;
        if (Date.now() > deadline) throw new Error(`outbox still has ${row.n} unsent rows after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async cleanup() {
      await resetWriteStoreForTests();
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      resetEnvForTests();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type RouteModule = { loader?: (args: never) => unknown; action?: (args: never) => unknown };

/** Call a route module the way Remix does: loader for GET/HEAD, action otherwise. */
export async function callRoute(
  route: RouteModule,
  request: Request,
  options: { params?: Record<string, string>; context?: Record<string, unknown> } = {},
): Promise<Response> {
  const handler = request.method === "GET" || request.method === "HEAD" ? route.loader : route.action;
  if (!handler) throw new Error(`route has no handler for ${request.method}`);
  const args = { request, params: options.params ?? {}, context: options.context ?? { clientIp: "203.0.113.7" } };
  try {
    const result = await (handler as (a: typeof args) => unknown)(args);
    return toResponse(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** Remix `data()` results and plain objects, as the Response Remix would send. */
function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  const maybe = result as { type?: string; data?: unknown; init?: ResponseInit | null } | null;
  if (maybe && maybe.type === "DataWithResponseInit") {
    return new Response(JSON.stringify(maybe.data), {
      ...(maybe.init ?? {}),
      headers: { "content-type": "application/json", ...(maybe.init?.headers as Record<string, string> | undefined) },
    });
  }
  return new Response(JSON.stringify(result), { status: 200, headers: { "content-type": "application/json" } });
}

export function jsonRequest(
  url: string,
  body: unknown,
  init: { method?: string; headers?: Record<string, string> } = {},
): Request {
  return new Request(`http://localhost${url}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(init.headers ?? {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function formRequest(url: string, fields: Record<string, string | string[]>): Request {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: params.toString(),
  });
}

export const HEX24 = /^[0-9a-f]{24}$/;

/**
 * A plan the sample plan store offers in New York County (36061, ZIP 10001), newest year first:
 * candidates straight from the file, the service's own check picks one. Call after the sandbox
 * has set PLAN_STORE_PATH.
 */
export function planOfferedInNewYorkCounty(): { id: string; year: number } {
  if (!existsSync(TEST_PLAN_STORE))
    throw new Error(`the test plan store ${TEST_PLAN_STORE} is missing: run the tests through vitest's global setup`);
  const db = new Database(TEST_PLAN_STORE, { readonly: true });
  const candidates = db
    .prepare("SELECT plan_year AS year, plan_id AS id FROM plans WHERE state = 'NY' ORDER BY plan_year DESC, plan_id")
    .all() as { year: number; id: string }[];
  db.close();
  const found = candidates.find((c) =>
    planStore().isPlanOfferedIn({ planId: c.id, year: c.year, state: "NY", countyFips: "36061", zip: "10001" }),
  );
  if (!found) throw new Error("the sample plan store offers no plan in New York County (36061)");
  return found;
}

/** One blank PDF through the upload route, as a form sends it: its answer's upload id and key (throws unless 200). */
export async function uploadBlankPdf(
  name: string,
  docType = "consent_form",
): Promise<{ uploadId: string; key: string }> {
  const form = new FormData();
  form.append("docType", docType);
  form.append("blankConfirmed", "true");
  form.append("file", new File([new Uint8Array(pdf())], name, { type: "application/pdf" }));
  const res = await callRoute(
    uploadRoute,
    new Request("http://localhost/api/agents/discovery/upload", { method: "POST", body: form }),
  );
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { upload_id: string; key: string };
  return { uploadId: body.upload_id, key: body.key };
}
