/**
 * The production bundle carries no fake, and a production start refuses made-up data
 * (docs/decisions/150-fake-upstream-outside-the-bundle.md). Runs the built files as
 * `npm run build` leaves them.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, startServer, TEST_PLAN_STORE } from "../../helpers/server";

const BUILD_DIR = path.join(REPO_ROOT, "build");
const SERVER_JS = path.join(BUILD_DIR, "server.js");
const A_KEY = "production-test-key-0123456789";

/** Every `function name` / `class name` declared at the top of a .ts file under dir. */
function declaredNames(dir: string): string[] {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    for (const m of text.matchAll(/^(?:export )?(?:async )?(?:function\*?|class) ([A-Za-z_$][\w$]*)/gm)) {
      names.add(m[1]);
    }
  }
  return [...names];
}

describe("the production bundle", () => {
  const bundle = readFileSync(SERVER_JS, "utf8");

  it("holds no module from mocks/ or tests/", () => {
    // esbuild marks each bundled module with a `// <path>` comment line.
    const modules = [...bundle.matchAll(/^\/\/ (\S+\.tsx?)$/gm)].map((m) => m[1]);
    expect(modules).toContain("server.ts");
    expect(modules.filter((m) => /^(mocks|tests)\//.test(m))).toEqual([]);
  });

  it("defines none of the functions or classes declared in mocks/ or tests/fakes", () => {
    const names = [
      ...declaredNames(path.join(REPO_ROOT, "mocks")),
      ...declaredNames(path.join(REPO_ROOT, "tests", "fakes")),
    ];
    expect(names).toContain("startFakeUpstream");
    const defined = names.filter((name) =>
      new RegExp(`(?:function\\*?|class) ${name.replace("$", "\\$")}\\b`).test(bundle),
    );
    expect(defined).toEqual([]);
  });

  it("builds the fake as a file of its own, which does define them", () => {
    const fake = readFileSync(path.join(BUILD_DIR, "mocks", "cms-api.js"), "utf8");
    expect(fake).toMatch(/^\/\/ mocks\/cms-api\/index\.ts$/m);
    expect(fake).toMatch(/function startFakeUpstream\b/);
  });
});

/** Run the built server with these settings until it exits (or 20 s); its exit code and output. */
function runBuiltServer(
  settings: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "marketplace-refusal-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(scratch, "app.db")}`,
    UPLOAD_LOCAL_DIR: path.join(scratch, "uploads"),
    UNSUBSCRIBE_TOKEN_SECRET: "test-unsubscribe-secret-0123456789",
    RESEND_API_KEY: "re_test_key",
  };
  for (const name of ["VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "UPSTREAM", "MARKETPLACE_API_KEY"])
    delete env[name];
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SERVER_JS], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk.toString()));
    child.stderr.on("data", (chunk) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The output as lines, without the trailing newline. */
const lines = (output: string) => output.trimEnd().split("\n");

/** A copy of the test store (built from the sample) marked as real data. */
function realLookingStore(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "marketplace-store-")), "plan-store.sqlite");
  copyFileSync(TEST_PLAN_STORE, file);
  const db = new Database(file);
  db.prepare("UPDATE store_meta SET value = '0' WHERE key = 'sample'").run();
  db.close();
  return file;
}

describe("a production start (DEPLOY_ENV=production) refuses, in one line naming the setting", () => {
  it("without an upstream key", async () => {
    const { code, output } = await runBuiltServer({ DEPLOY_ENV: "production", PLAN_STORE_PATH: realLookingStore() });
    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(/^MARKETPLACE_API_KEY is not set: .*DEPLOY_ENV=production/)]);
  });

  it("when the sample fake is asked for, even with a key", async () => {
    const { code, output } = await runBuiltServer({
      DEPLOY_ENV: "production",
      MARKETPLACE_API_KEY: A_KEY,
      UPSTREAM: "fake",
      PLAN_STORE_PATH: realLookingStore(),
    });
    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(/^UPSTREAM=fake is refused with DEPLOY_ENV=production/)]);
  });

  it("without a plan store", async () => {
    const missing = path.join(os.tmpdir(), `no-such-store-${process.pid}.sqlite`);
    const { code, output } = await runBuiltServer({
      DEPLOY_ENV: "production",
      MARKETPLACE_API_KEY: A_KEY,
      PLAN_STORE_PATH: missing,
    });
    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([
      expect.stringMatching(/^PLAN_STORE_PATH: no plan store at .*never seeds sample data/),
    ]);
    expect(existsSync(missing)).toBe(false);
  });

  it("when the plan store holds the bundled sample data", async () => {
    const { code, output } = await runBuiltServer({
      DEPLOY_ENV: "production",
      MARKETPLACE_API_KEY: A_KEY,
      PLAN_STORE_PATH: TEST_PLAN_STORE,
    });
    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([expect.stringMatching(/^PLAN_STORE_PATH: .* holds the bundled sample data/)]);
  });

  it("and starts with a key and a store of real data", async () => {
    const server = await startServer({
      env: { DEPLOY_ENV: "production", MARKETPLACE_API_KEY: A_KEY, PLAN_STORE_PATH: realLookingStore() },
    });
    try {
      const health = await (await fetch(`${server.url}/api/health`)).json();
      expect(health.upstream).toBe("live");
      expect(server.output()).not.toMatch(/UPSTREAM=fake/);
    } finally {
      await server.stop();
    }
  });
});

describe("outside production", () => {
  it("the built server runs no fake unless asked for", async () => {
    const { code, output } = await runBuiltServer({ DEPLOY_ENV: "development", PLAN_STORE_PATH: TEST_PLAN_STORE });
    expect(code).not.toBe(0);
    expect(lines(output)).toEqual([
      expect.stringMatching(/^MARKETPLACE_API_KEY is not set: set it, or set UPSTREAM=fake/),
    ]);
  });

  it("npm start asks for the fake when no key is configured, and the log says so", async () => {
    const server = await startServer({ env: { DEPLOY_ENV: "development", MARKETPLACE_API_KEY: undefined } });
    try {
      expect(server.output()).toMatch(/"setting":"UPSTREAM".*UPSTREAM=fake: upstream answers .* sample CMS API fake/);
      const health = await (await fetch(`${server.url}/api/health`)).json();
      expect(health.upstream).toBe("sample");
    } finally {
      await server.stop();
    }
  });

  it("npm start's preparation never seeds sample data for a production start", () => {
    const missing = path.join(os.tmpdir(), `no-seeded-store-${process.pid}.sqlite`);
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "ensure-ready.mjs")], {
      cwd: REPO_ROOT,
      env: { ...process.env, DEPLOY_ENV: "production", PLAN_STORE_PATH: missing },
      encoding: "utf8",
    });
    expect(result.status).toBe(0);
    expect(existsSync(missing)).toBe(false);
    expect(result.stdout).not.toMatch(/loading the bundled sample data/);
  });
});
