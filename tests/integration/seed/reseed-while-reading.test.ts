/**
 * A reseed while the store is being read fails no query: reseeds run in a
 * child process (`npm run seed`'s CLI) and in-process, alternating two source
 * directories that differ in one plan's price, while a loop queries the read
 * module without pause. Every answer must come whole from one store version.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPlanStore, type PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { buildPlanStore } from "../../../seed/build-store";
import { FIXTURE_SOURCE, REPO, copyFixtureSource, edit, tempDir, removeTempDirs } from "./fixture-store";

const SILVER = "12345TX0010001";
const PLACE = { year: 2027, state: "TX", countyFips: "48121", zip: "75007" };
let sourceB: string;

beforeAll(() => {
  // Version B: the silver plan's age-21 rate in area 7 is 410.00 instead of 400.00.
  sourceB = copyFixtureSource("seed-src-b-");
  edit(path.join(sourceB, "rate-puf.csv"), (t) =>
    t.replace(/(12345TX0010001,Rating Area 7,Tobacco User\/Non-Tobacco User,21,)400\.00,600\.00/, "$1410.00,615.00"),
  );
});

function runSeed(source: string, out: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "seed/cli.ts", "--source", source, "--out", out, "--quiet"],
      { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(code) : reject(new Error(`seed exited ${code}: ${stderr}`))));
  });
}

type LoopResult = { queries: number; errors: unknown[]; premiumsSeen: Set<number> };

/** Queries the store continuously (yielding to the event loop between rounds) until `done` settles. */
async function queryLoop(store: PlanStore, done: Promise<unknown>): Promise<LoopResult> {
  const result: LoopResult = { queries: 0, errors: [], premiumsSeen: new Set() };
  let finished = false;
  done.finally(() => (finished = true)).catch(() => undefined);
  while (!finished) {
    try {
      const offered = store.plansOffered(PLACE);
      if (offered.map((p) => p.id).join() !== `${SILVER},12345TX0010002`)
        throw new Error(`plans offered: ${offered.map((p) => p.id).join()}`);
      const plan = store.planById(SILVER, 2027)!;
      const area7 = plan.premiumsByRatingArea["Rating Area 7"];
      // Within one answer, the premium and the age table agree (one store version).
      if (plan.ageRatesByArea["Rating Area 7"]["21"].individual !== area7)
        throw new Error("mixed store versions in one answer");
      result.premiumsSeen.add(area7);
      const table = store.rateTables({ year: 2027, planIds: [SILVER], ratingArea: "Rating Area 7" }).get(SILVER)!;
      if (![400, 410].includes(table.ageRates["21"].individual))
        throw new Error(`rate ${table.ageRates["21"].individual}`);
      if (store.countiesForZip("75007").length !== 3) throw new Error("counties");
      if (store.formularyRows({ year: 2027, rxcuis: ["860975"] }).length !== 2) throw new Error("formulary");
      result.queries += 5;
    } catch (error) {
      result.errors.push(error);
    }
    await new Promise((r) => setImmediate(r));
  }
  return result;
}

const stores: PlanStore[] = [];
afterAll(() => stores.forEach((s) => s.close()));
afterAll(() => removeTempDirs());

describe("reseeding while the store is read", () => {
  it("fails no query while a child process reseeds four times", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const fast = openPlanStore(out, { checkIntervalMs: 10 });
    const normal = openPlanStore(out); // the production interval: at most one stat a second
    stores.push(fast, normal);
    const reseeds = (async () => {
      for (const source of [sourceB, FIXTURE_SOURCE, sourceB, FIXTURE_SOURCE]) await runSeed(source, out);
    })();
    const [a, b] = await Promise.all([queryLoop(fast, reseeds), queryLoop(normal, reseeds), reseeds]);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    expect(a.queries).toBeGreaterThan(100);
    // The fast reader saw both versions: the swaps really happened under it.
    expect([...a.premiumsSeen].sort()).toEqual([400, 410]);
    // After the last reseed (version A) both readers answer from it.
    await new Promise((r) => setTimeout(r, 1100));
    expect(fast.planById(SILVER, 2027)!.premiumsByRatingArea["Rating Area 7"]).toBe(400);
    expect(normal.planById(SILVER, 2027)!.premiumsByRatingArea["Rating Area 7"]).toBe(400);
  }, 120_000);

  it("fails no query while the same process reseeds", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const store = openPlanStore(out, { checkIntervalMs: 0 });
    stores.push(store);
    const reseeds = (async () => {
      for (const source of [sourceB, FIXTURE_SOURCE, sourceB])
        await buildPlanStore({ sourceDir: source, outPath: out });
    })();
    const [r] = await Promise.all([queryLoop(store, reseeds), reseeds]);
    expect(r.errors).toEqual([]);
    expect(r.queries).toBeGreaterThan(10);
    expect(store.planById(SILVER, 2027)!.premiumsByRatingArea["Rating Area 7"]).toBe(410);
  }, 60_000);
});
