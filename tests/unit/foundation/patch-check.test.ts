import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unappliedPatches } from "../../../server/patch-check";
import { REPO_ROOT } from "../../helpers/server";

/** A repository with one patch to node_modules/pkg/index.js and that file as given. */
function repoWith(installed: string | null): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "patch-check-"));
  mkdirSync(path.join(root, "patches"));
  writeFileSync(
    path.join(root, "patches", "pkg+1.0.0.patch"),
    [
      "diff --git a/node_modules/pkg/index.js b/node_modules/pkg/index.js",
      "index 1111111..2222222 100644",
      "--- a/node_modules/pkg/index.js",
      "+++ b/node_modules/pkg/index.js",
      "@@ -1,2 +1,4 @@",
      " function f() {",
      "+  // health-plan-marketplace patch: remembered",
      "+  return cached;",
      " }",
      "",
    ].join("\n"),
  );
  if (installed !== null) {
    mkdirSync(path.join(root, "node_modules", "pkg"), { recursive: true });
    writeFileSync(path.join(root, "node_modules", "pkg", "index.js"), installed);
  }
  return root;
}

describe("the start-up check of the patch-package patches", () => {
  it("finds every patch in this repository applied to node_modules", () => {
    expect(unappliedPatches(REPO_ROOT)).toEqual([]);
  });

  it("names a patch whose lines are not in the installed file (npm install --ignore-scripts)", () => {
    expect(unappliedPatches(repoWith("function f() {\n}\n"))).toEqual([
      { patch: "pkg+1.0.0.patch", file: "node_modules/pkg/index.js" },
    ]);
  });

  it("names a patch whose file is not installed at all", () => {
    expect(unappliedPatches(repoWith(null))).toEqual([{ patch: "pkg+1.0.0.patch", file: "node_modules/pkg/index.js" }]);
  });

  it("is quiet once the patch is applied", () => {
    const applied = "function f() {\n  // health-plan-marketplace patch: remembered\n  return cached;\n}\n";
    expect(unappliedPatches(repoWith(applied))).toEqual([]);
  });
});
