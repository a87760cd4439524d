import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 28 item 9: components take props only. Nothing in app/components imports app/server, and
 * the page models (app/server/pages) import no components; the shapes both sides name live in
 * app/lib/page-views.ts. The imports are read from the source (static `import` / `export … from`
 * and dynamic `import()`), resolved against the importing file.
 */

const ROOT = resolve(__dirname, "../../..");
const APP = join(ROOT, "app");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

/** The app-relative folder each of a file's imports resolves to ("server/pages/x.server", …). */
function importsOf(file: string, text = readFileSync(file, "utf8")): string[] {
  const found: string[] = [];
  for (const [, spec] of text.matchAll(IMPORT)) {
    if (spec.startsWith(".")) found.push(relative(APP, resolve(dirname(file), spec)));
    else if (spec.startsWith("~/")) found.push(spec.slice(2));
  }
  return found;
}

function crossings(fromDir: string, into: string): string[] {
  return sourceFiles(join(APP, fromDir)).flatMap((file) =>
    importsOf(file)
      .filter((target) => target === into || target.startsWith(`${into}/`))
      .map((target) => `${relative(ROOT, file)} -> app/${target}`),
  );
}

describe("layering (issue 28 item 9)", () => {
  it("reads relative and ~/ imports, static and dynamic", () => {
    const file = join(APP, "components/plans/x.tsx");
    const text = [
      'import { a } from "../../server/pages/a.server";',
      'import type { B } from "~/server/b.server";',
      'export { c } from "../../lib/page-views";',
      'const d = await import("../../server/d.server");',
      'import "react";',
    ].join("\n");
    expect(importsOf(file, text)).toEqual([
      "server/pages/a.server",
      "server/b.server",
      "lib/page-views",
      "server/d.server",
    ]);
  });

  it("nothing in app/components imports app/server", () => {
    expect(crossings("components", "server")).toEqual([]);
  });

  it("no page model in app/server/pages imports app/components", () => {
    expect(crossings("server/pages", "components")).toEqual([]);
  });
});
