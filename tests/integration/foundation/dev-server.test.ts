/**
 * `npm run dev`: server.ts through tsx with Vite in middleware mode (hot reload), behind the
 * same middleware as production. Spawned as a developer runs it, polled until it listens, killed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT, TEST_PLAN_STORE } from "../../helpers/server";

it("npm run dev serves the start page from the sources, with Vite's client for hot reload", async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "marketplace-dev-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    PLAN_STORE_PATH: TEST_PLAN_STORE,
    DATABASE_URL: `file:${path.join(scratch, "app.db")}`,
    UPLOAD_LOCAL_DIR: path.join(scratch, "uploads"),
    DEPLOY_ENV: "development",
  };
  for (const name of ["VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "NODE_ENV", "MARKETPLACE_API_KEY", "UPSTREAM"])
    delete env[name];
  // Its own process group, so that npm, node and Vite's workers all stop together.
  const child = spawn("npm", ["run", "dev"], {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk.toString()));
  child.stderr.on("data", (chunk) => (output += chunk.toString()));
  try {
    await expect
      .poll(() => /listening on http:\/\/[^:]+:(\d+)/.exec(output)?.[1], { timeout: 90_000, interval: 200 })
      .toBeDefined();
    const base = `http://127.0.0.1:${/listening on http:\/\/[^:]+:(\d+)/.exec(output)![1]}`;
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Your ZIP code");
    // Served from the sources: the page loads Remix's hot-reload runtime and Vite's client, which Vite serves.
    expect(html).toContain('import "/@id/__x00__virtual:remix/inject-hmr-runtime"');
    expect(html).toContain('import * as route0 from "/app/root.tsx"');
    expect((await fetch(`${base}/@id/__x00__virtual:remix/inject-hmr-runtime`)).status).toBe(200);
    expect((await fetch(`${base}/@vite/client`)).status).toBe(200);
    // The same middleware as production: security headers and the request log.
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    expect(output).toMatch(/"path":"\/","status":200/);
    expect(output).toMatch(/UPSTREAM=fake/);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
    await exited;
    // npm exits at once, and the server under it goes on alone. Seen in CI: an orphan listening for
    // hours, its main thread in Atomics.wait. That was sonic-boom's exit flush retrying a pipe nobody
    // read any more (fixed by decision 520: the exit's flush waits 2 s at most). Whatever is left of
    // the group after 10 s is still killed, so no run can leave a server behind.
    const groupAlive = () => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    const until = Date.now() + 10_000;
    while (groupAlive() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    if (groupAlive()) {
      console.warn("npm run dev: the server outlived SIGTERM by 10 s; killed (SIGKILL)");
      process.kill(-child.pid!, "SIGKILL");
    }
  }
}, 120_000);
