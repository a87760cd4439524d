import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { REPO_ROOT, TEST_PLAN_STORE } from "./helpers/server";

/**
 * Before any test: a plan store built from the bundled sample (rebuilt when
 * the sample is newer than the store). The production build is made by
 * `npm test` (scripts/test.sh) before vitest starts.
 */
export default function setup() {
  mkdirSync(path.dirname(TEST_PLAN_STORE), { recursive: true });
  const sampleDir = path.join(REPO_ROOT, "seed", "sample");
  if (!existsSync(path.join(REPO_ROOT, "seed", "cli.ts")) || !existsSync(sampleDir)) {
    // Only while the seed pipeline is being written: tests that need the store fail on their own.
    console.warn("global-setup: no seed pipeline or sample yet; the test plan store was not built");
    return;
  }
  const stale = !existsSync(TEST_PLAN_STORE) || newestFileTime(sampleDir) > statSync(TEST_PLAN_STORE).mtimeMs;
  if (stale) {
    execFileSync(
      process.execPath,
      ["--import", "tsx", "seed/cli.ts", "--source", "seed/sample", "--out", TEST_PLAN_STORE],
      {
        cwd: REPO_ROOT,
        stdio: "inherit",
      },
    );
  }
}

function newestFileTime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}
