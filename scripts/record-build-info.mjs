// Records the build revision next to the build so /api/health can name it
// even where COMMIT_SHA is not set and there is no .git at run time.
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

function revision() {
  if (process.env.COMMIT_SHA && process.env.COMMIT_SHA.trim()) return process.env.COMMIT_SHA.trim();
  try {
    const sha = execSync("git rev-parse HEAD", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
    if (sha) return sha;
  } catch {
    // not a git checkout
  }
  return `unversioned-build-${new Date().toISOString()}`;
}

const dir = process.env.BUILD_DIR ?? "build";
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}/info.json`, JSON.stringify({ commit: revision(), builtAt: new Date().toISOString() }, null, 2));
console.log(`recorded ${dir}/info.json`);
