/**
 * npm run lighthouse -- [--build] [--runs N] [--keep]
 *
 * A light page on a phone (issue 29 item 4): Lighthouse 12.2 (its default mobile set-up:
 * a mid-range phone, simulated slow 4G and 4× CPU slow-down) in Debian's chromium
 * (/usr/bin/chromium, or CHROME_PATH), on four pages of the production build over the sample
 * data and the sample CMS API fake: the start page, a results page, a plan page and a comparison.
 * Prints one line per page,
 *
 *   lighthouse: <page> performance <score> tbt <ms>
 *
 * (the median score of --runs runs, default 5: one run's score moves by a point or two with the
 * machine's load, and Lighthouse's own guidance on variability is the median of five) and the JavaScript each page loaded in the run,
 * gzipped (level 9, as the budget counts it). Builds into data/lighthouse/build when there is no build
 * there or a source file is newer than it (--build: always); ./build, which others use, is
 * not touched. Scores are a benchmark, not a timed test: nothing fails on them.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { compareHref, readShoppingState } from "../app/lib/shopping-url";

const ROOT = join(import.meta.dirname, "..");
const BUILD_DIR = join(ROOT, "data", "lighthouse", "build");
// Its own store from the bundled sample (another checkout's data/plan-store.sqlite may be of an older schema).
const STORE = join(ROOT, "data", "lighthouse", "plan-store.sqlite");
const RESULTS = "/plans?zip=75201&county=48113&state=TX&income=36000&age=35";
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";

const argv = process.argv.slice(2);
const runsAt = argv.indexOf("--runs");
const runs = runsAt < 0 ? 5 : Math.max(1, Number(argv[runsAt + 1]) || 1);

/** The newest modification time under the folders the build is made from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ["app", "server", "public"]) walk(join(ROOT, dir));
  return Math.max(newest, statSync(join(ROOT, "server.ts")).mtimeMs);
}

function ensureBuild(): void {
  const serverJs = join(BUILD_DIR, "server.js");
  const fresh = existsSync(serverJs) && statSync(serverJs).mtimeMs > newestSource();
  if (fresh && !argv.includes("--build")) return;
  console.log(`lighthouse: building into ${relative(ROOT, BUILD_DIR)} ...`);
  const env = { ...process.env, BUILD_DIR };
  execFileSync(join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], { cwd: ROOT, env, stdio: "ignore" });
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT, env, stdio: "inherit" });
  execFileSync(process.execPath, ["scripts/record-build-info.mjs"], { cwd: ROOT, env, stdio: "ignore" });
}

async function startServer(): Promise<{ url: string; stop: () => void; scratch: string }> {
  if (!existsSync(STORE))
    execFileSync(process.execPath, ["--import", "tsx", "seed/cli.ts", "--source", "seed/sample", "--out", STORE], {
      cwd: ROOT,
      stdio: "inherit",
    });
  const scratch = mkdtempSync(join(tmpdir(), "marketplace-lighthouse-"));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR,
      PORT: "0",
      HOST: "127.0.0.1",
      UPSTREAM: "fake",
      PLAN_STORE_PATH: STORE,
      DATABASE_URL: `file:${join(scratch, "app.db")}`,
      UPLOAD_LOCAL_DIR: join(scratch, "uploads"),
      UNSUBSCRIBE_TOKEN_SECRET: "lighthouse-unsubscribe-secret-0123456789",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`server did not start:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      if (output.length > 64_000) return;
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  // The request log is read and dropped.
  return { url, scratch, stop: () => child.kill("SIGTERM") };
}

/**
 * The scripts the page loaded in the Lighthouse run (its network requests of type Script: the
 * HTML's module scripts and preloads, and the language's catalogue the entry loads before
 * hydrating, decision 405), each read from the build and gzipped at level 9, in KB.
 */
function pageJsKb(lhr: { audits: Record<string, { details?: unknown }> }): number {
  const items = (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; resourceType?: string }> })
    ?.items;
  const files = new Set<string>();
  for (const item of items ?? []) {
    const path = new URL(item.url).pathname;
    if (item.resourceType === "Script" && path.startsWith("/assets/")) files.add(path);
  }
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(join(BUILD_DIR, "client", file)), { level: 9 }).length;
  return total / 1024;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  ensureBuild();
  const server = await startServer();
  process.on("exit", () => server.stop());
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const answer = await fetch(server.url + RESULTS);
    const results = await answer.text();
    if (answer.status !== 200) throw new Error(`the results page answered ${answer.status}`);
    const planIds = [...results.matchAll(/href="\/plans\/([^/?"]+)\?/g)]
      .map((m) => decodeURIComponent(m[1]!))
      .filter((id, i, all) => id !== "compare" && all.indexOf(id) === i);
    if (planIds.length < 2) throw new Error(`the results page lists ${planIds.length} plans`);
    const state = readShoppingState(new URL(RESULTS, server.url).searchParams);
    const pages: Array<[string, string]> = [
      ["home", "/"],
      ["results", RESULTS],
      ["plan", `/plans/${encodeURIComponent(planIds[0]!)}${RESULTS.slice(RESULTS.indexOf("?"))}`],
      ["compare", compareHref(state, planIds.slice(0, 3))],
    ];
    for (const [name, path] of pages) {
      const scores: number[] = [];
      const tbts: number[] = [];
      let js = 0;
      let metrics = "";
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(server.url + path, {
          port: chrome.port,
          onlyCategories: ["performance"],
          output: "json",
          logLevel: "error",
        });
        const lhr = result!.lhr;
        scores.push(Math.round((lhr.categories.performance!.score ?? 0) * 100));
        tbts.push(Math.round(lhr.audits["total-blocking-time"]!.numericValue ?? NaN));
        js = pageJsKb(lhr);
        const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
        metrics = `fcp ${ms("first-contentful-paint")} ms, lcp ${ms("largest-contentful-paint")} ms, speed index ${ms("speed-index")} ms, cls ${(lhr.audits["cumulative-layout-shift"]?.numericValue ?? NaN).toFixed(3)}`;
      }
      console.log(`lighthouse: ${name} performance ${median(scores)} tbt ${median(tbts)}`);
      console.log(`lighthouse: ${name} javascript ${js.toFixed(1)} KB gzipped (${path})`);
      console.log(`lighthouse: ${name} metrics of the last run: ${metrics}`);
    }
  } finally {
    await chrome.kill();
    server.stop();
    rmSync(server.scratch, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    // Nothing may keep this process (and the lock a caller holds around it) alive.
    process.exit(1);
  },
);
