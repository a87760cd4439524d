import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { forgetSingleton } from "../../../app/server/platform/lifecycle.server";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { resetUpstreamClientForTests } from "../../../app/server/upstream/client.server";
import { resetWriteStoreForTests } from "../../../app/server/intake/write-store.server";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { TEST_PLAN_STORE } from "../../helpers/server";
import { UNSUBSCRIBE_SECRET } from "./fixtures";

/**
 * The in-process fuzz passes run the route modules in the test process with
 * the same parts the server has: the sample plan store, a scratch write
 * store and upload directory, and the bundled fake upstream on 127.0.0.1.
 * Emails go to an unreachable address and stay in the outbox.
 */

/**
 * Where scratch stores go: a RAM-backed /dev/shm when there is one, since the
 * write store fsyncs every commit and the fuzz runs commit hundreds of valid
 * submissions; the behaviour under test is the same on any file system.
 */
export function scratchRoot(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}

const FAKE_KEY = "fuzz-fake-upstream-key-0123456789";

export interface FuzzSandbox {
  dir: string;
  upstream: FakeUpstream;
  /** console.error lines seen while the sandbox was up (route crashes are logged there). */
  errors: string[];
  cleanup(): Promise<void>;
}

export async function startFuzzSandbox(): Promise<FuzzSandbox> {
  const saved = { ...process.env };
  const dir = mkdtempSync(path.join(scratchRoot(), "fuzz-routes-"));
  const upstream = await startFakeUpstream({ apiKey: FAKE_KEY });
  const settings: Record<string, string | undefined> = {
    NODE_ENV: "production",
    DEPLOY_ENV: "test",
    LOG_LEVEL: "silent",
    PLAN_STORE_PATH: TEST_PLAN_STORE,
    DATABASE_URL: `file:${path.join(dir, "app.db")}`,
    UPLOAD_LOCAL_DIR: path.join(dir, "uploads"),
    UPLOAD_BUCKET: undefined,
    UNSUBSCRIBE_TOKEN_SECRET: UNSUBSCRIBE_SECRET,
    EMAIL_PROVIDER: "resend",
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: "http://127.0.0.1:9/unreachable",
    POSTHOG_API_KEY: undefined,
    PUBLIC_BASE_URL: "https://marketplace.test",
    MARKETPLACE_API_KEY: FAKE_KEY,
    MARKETPLACE_API_BASE_URL: upstream.url,
    UPSTREAM_IS_SAMPLE: "1",
    UPSTREAM_TIMEOUT_MS: undefined,
    // The fake has no rate limit here; thousands of generated requests must reach it, not the call budget.
    UPSTREAM_CALLS_PER_MINUTE: "10000000",
    UPSTREAM_CALLS_PER_SECOND: "10000000",
  };
  await resetWriteStoreForTests();
  for (const [k, v] of Object.entries(settings)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
  forgetSingleton("logger");
  resetUpstreamClientForTests();
  resetPlanStoreForTests();

  const errors: string[] = [];
  const originalError = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(" "));
  };
  return {
    dir,
    upstream,
    errors,
    async cleanup() {
      console.error = originalError;
      await resetWriteStoreForTests();
      resetPlanStoreForTests();
      await upstream.close();
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      resetEnvForTests();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
