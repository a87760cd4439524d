/**
 * The patch-package patches in patches/ (route matching memoised, document routes made once:
 * docs/decisions/125 and 129) are applied by `npm install`'s postinstall. An install without
 * scripts (`npm install --ignore-scripts`, a package manager that skips them) leaves the
 * packages unpatched: everything still works, only slower, so nothing fails and nobody notices.
 * server.ts logs a warning naming each patch that is not applied.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface UnappliedPatch {
  /** The patch file, e.g. `@remix-run+router+1.23.3.patch`. */
  patch: string;
  /** The patched file, relative to the repository root. */
  file: string;
}

/**
 * Each patch whose added lines are not all in the file it patches. A patch is read as a unified
 * diff: `+++ b/<file>` names the file, `+` lines are what it adds. Missing patches/ (a deployment
 * without it): nothing to check.
 */
export function unappliedPatches(root: string = process.cwd()): UnappliedPatch[] {
  const dir = path.join(root, "patches");
  if (!existsSync(dir)) return [];
  const problems: UnappliedPatch[] = [];
  for (const patch of readdirSync(dir)
    .filter((name) => name.endsWith(".patch"))
    .sort()) {
    let file: string | null = null;
    let added: string[] = [];
    const check = () => {
      if (file === null) return;
      const target = path.join(root, file);
      const text = existsSync(target) ? readFileSync(target, "utf8") : null;
      if (text === null || added.some((line) => !text.includes(line))) problems.push({ patch, file });
    };
    for (const line of readFileSync(path.join(dir, patch), "utf8").split("\n")) {
      if (line.startsWith("+++ ")) {
        check();
        file = line.slice(4).replace(/^b\//, "");
        added = [];
      } else if (line.startsWith("+") && line.trim() !== "+") {
        added.push(line.slice(1));
      }
    }
    check();
  }
  return problems;
}
