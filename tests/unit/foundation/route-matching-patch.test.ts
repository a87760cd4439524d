import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * patches/@remix-run+router+1.23.3.patch (docs/decisions/125) memoises
 * the server's route matching: ranked branches per route tree and compiled path
 * RegExps per path (the whole-path pre-test of decision 131 was removed: no
 * measured gain, docs/decisions/153). The CommonJS build (what the server loads) carries the
 * patch; the ES module build (what the browser bundle uses) does not, so it
 * is the reference the patched matcher must agree with, call after call.
 */
const require = createRequire(import.meta.url);
const cjsFile = require.resolve("@remix-run/router");
// The ESM build next to it, loaded by path: the package's own resolution picks the CJS one here.
const esmFile = cjsFile.replace(/router\.cjs\.js$/, "router.js");

type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = {
  route: { id: string };
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
};
type MatchRoutes = (routes: Route[], location: string, basename?: string) => Match[] | null;

// The shape of this service's route tree: a root layout, index, static pages, an API splat,
// dynamic segments, an optional segment and a nested layout.
const tree = (): Route[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/plans._index", path: "plans", index: true },
      { id: "routes/plans.compare", path: "plans/compare" },
      { id: "routes/plans.$planId", path: "plans/:planId" },
      { id: "routes/api.plans", path: "api/plans" },
      { id: "routes/api.health", path: "api/health" },
      { id: "routes/api.enroll.applications.$applicationId", path: "api/enroll/applications/:applicationId" },
      { id: "routes/api.$", path: "api/*" },
      { id: "routes/agents", path: "agents", children: [{ id: "routes/agents.$step", path: ":step?" }] },
      { id: "routes/Privacy", path: "PRIVACY", caseSensitive: true },
    ],
  },
];

const PATHS = [
  "/",
  "/plans",
  "/plans/",
  "/plans/compare",
  "/plans/12345FL0010001",
  "/plans/12345FL0010001/",
  "/plans/a%20b",
  "/api/plans",
  "/API/PLANS",
  "/api/health",
  "/api/enroll/applications/0123456789abcdef",
  "/api/nope/deeper",
  "/api",
  "/agents",
  "/agents/intro",
  "/PRIVACY",
  "/privacy",
  "/nowhere",
];

function view(matches: Match[] | null) {
  return (
    matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase })) ?? null
  );
}

describe("memoised route matching (patched @remix-run/router)", () => {
  it("is what the server loads", () => {
    const source = readFileSync(cjsFile, "utf8");
    expect(source).toContain("health-plan-marketplace patch");
    expect(source).toContain("rankedBranchesByRoutes");
    expect(source).not.toContain("wholePathTest");
  });

  it("matches every path as the unpatched build does, on the first call and on later ones", async () => {
    const patched = (require("@remix-run/router") as { matchRoutes: MatchRoutes }).matchRoutes;
    const reference = ((await import(esmFile)) as { matchRoutes: MatchRoutes }).matchRoutes;
    expect(readFileSync(esmFile, "utf8")).not.toContain("health-plan-marketplace patch");
    const routes = tree();
    for (let round = 0; round < 3; round++) {
      for (const path of PATHS)
        expect(view(patched(routes, path)), `${path}, round ${round}`).toEqual(view(reference(tree(), path)));
    }
    expect(view(patched(routes, "/plans/X1"))?.at(-1)).toMatchObject({
      id: "routes/plans.$planId",
      params: { planId: "X1" },
    });
    expect(patched(routes, "/privacy")).toBeNull();
  });

  it("matches random paths (case, slashes, encodings, depth) as the unpatched build does", async () => {
    const patched = (require("@remix-run/router") as { matchRoutes: MatchRoutes }).matchRoutes;
    const reference = ((await import(esmFile)) as { matchRoutes: MatchRoutes }).matchRoutes;
    const words = [
      "plans",
      "PLANS",
      "Plans",
      "compare",
      "api",
      "API",
      "health",
      "agents",
      "intro",
      "enroll",
      "applications",
      "privacy",
      "PRIVACY",
      "12345FL0010001",
      "a%20b",
      "%2F",
      "x.json",
      "",
      "nope",
    ];
    let seed = 125;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const routes = tree();
    for (let n = 0; n < 3000; n++) {
      const depth = Math.floor(next() * 5);
      const segments = Array.from({ length: depth }, () => words[Math.floor(next() * words.length)]);
      const path = `${next() < 0.1 ? "//" : "/"}${segments.join(next() < 0.1 ? "//" : "/")}${next() < 0.2 ? "/" : ""}`;
      expect(view(patched(routes, path)), path).toEqual(view(reference(tree(), path)));
    }
  });

  it("keeps route trees apart: another tree gets its own branches", () => {
    const patched = (require("@remix-run/router") as { matchRoutes: MatchRoutes }).matchRoutes;
    const first = tree();
    const second: Route[] = [{ id: "other-root", path: "", children: [{ id: "only", path: "plans/:planId" }] }];
    expect(view(patched(first, "/api/plans"))?.at(-1)?.id).toBe("routes/api.plans");
    expect(patched(second, "/api/plans")).toBeNull();
    expect(view(patched(second, "/plans/Y"))?.at(-1)).toMatchObject({ id: "only", params: { planId: "Y" } });
    expect(view(patched(first, "/plans/Y"))?.at(-1)?.id).toBe("routes/plans.$planId");
  });
});
