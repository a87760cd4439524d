/**
 * The national-scale generator, run at a small fraction of its targets (the
 * full run writes 2.6 GB): same formats, the 30 owned-data states,
 * state-specific age curves, ZIP3 rating, determinism, and the calibration
 * of the full-size world to the row counts.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parameter } from "../../../app/domain/parameters/parameter-file";
import { generate, type GenerateSummary } from "../../../seed/generate/index";
import { buildNationalWorld } from "../../../seed/generate/national-world";
import { centsTimesMilli, listFiles, readTable, toCents, type Table } from "./files";

const REPO = join(__dirname, "..", "..", "..");
const headersJson = JSON.parse(readFileSync(join(REPO, "seed/reference/puf-column-headers.json"), "utf8"));

let dirA: string;
let dirB: string;
let summary: GenerateSummary;
let pa: Table;
let rates: Table;

beforeAll(() => {
  dirA = mkdtempSync(join(tmpdir(), "national-a-"));
  dirB = mkdtempSync(join(tmpdir(), "national-b-"));
  summary = generate({ scale: "national", outDir: dirA, fraction: 0.002 });
  generate({ scale: "national", outDir: dirB, fraction: 0.002 });
  pa = readTable(join(dirA, "plan-attributes-puf.csv"));
  rates = readTable(join(dirA, "rate-puf.csv"));
}, 120_000);

afterAll(() => {
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
});

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

describe("national generator (small fraction)", () => {
  it("writes the same bytes twice", () => {
    const files = listFiles(dirA);
    expect(listFiles(dirB)).toEqual(files);
    for (const f of files) expect(sha(join(dirB, f)), f).toBe(sha(join(dirA, f)));
  });

  it("uses the PY2026 headers and marks the directory as sample data", () => {
    const firstLine = (f: string) => readFileSync(join(dirA, f), "utf8").split("\n")[0];
    expect(firstLine("plan-attributes-puf.csv")).toBe(headersJson.plan_attributes_puf.PY2026.join(","));
    expect(firstLine("rate-puf.csv")).toBe(headersJson.rate_puf.PY2026.join(","));
    expect(firstLine("benefits-and-cost-sharing-puf.csv")).toBe(headersJson.benefits_cost_sharing_puf.PY2026.join(","));
    expect(listFiles(dirA)).toContain("SAMPLE-DATA");
  });

  it("covers exactly the 30 owned-data states of 2027, and every county of the country", () => {
    const owned = readTable(join(dirA, "states.csv"))
      .rows.filter((s) => s.owned_data === "true")
      .map((s) => s.state_code)
      .sort();
    expect(owned.length).toBe(30);
    expect([...new Set(pa.rows.map((r) => r.StateCode))].sort()).toEqual(owned);
    expect(summary.counts.counties).toBe(3143);
  });

  it("rates Alabama and Utah by their own age curves (aca-parameters.json ageCurveStateSpecific)", () => {
    for (const [state, childKey, adultKey, adultLabel] of [
      ["AL", "0-20", "40", "40"],
      ["UT", "0-20", "27-36", "30"],
    ]) {
      const curve = parameter("ageCurveStateSpecific", 2027)[state];
      const plan = rates.rows.find((r) => r.StateCode === state && r.Age === "21")!;
      const row = (age: string) =>
        rates.rows.find((r) => r.PlanId === plan.PlanId && r.RatingAreaId === plan.RatingAreaId && r.Age === age)!;
      const base = toCents(plan.IndividualRate);
      // Children 0–20 share one factor (AL 0.635, UT 0.793); the federal 0.765 would be wrong here.
      for (const age of ["0-14", "17", "20"])
        expect(toCents(row(age).IndividualRate)).toBe(centsTimesMilli(base, Math.round(curve[childKey] * 1000)));
      expect(toCents(row(adultLabel).IndividualRate)).toBe(centsTimesMilli(base, Math.round(curve[adultKey] * 1000)));
    }
  });

  it("prices NE plans in the rating area of every ZIP3 of every county they serve", () => {
    const zip3 = new Map(
      readTable(join(dirA, "rating-areas-by-zip3.csv"))
        .rows.filter((r) => r.state === "NE")
        .map((r) => [r.zip3, r.rating_area_id]),
    );
    const hud = readTable(join(dirA, "zip-county-hud.csv")).rows.filter((r) => r.COUNTY.startsWith("31"));
    const sa = readTable(join(dirA, "service-area-puf.csv")).rows.filter((r) => r.StateCode === "NE");
    for (const p of pa.rows.filter((r) => r.StateCode === "NE" && r.PlanId.endsWith("-01"))) {
      const priced = new Set(rates.rows.filter((r) => r.PlanId === p.StandardComponentId).map((r) => r.RatingAreaId));
      const rows = sa.filter((s) => s.IssuerId === p.IssuerId && s.ServiceAreaId === p.ServiceAreaId);
      const counties = rows.some((s) => s.CoverEntireState === "Yes")
        ? new Set(hud.map((h) => h.COUNTY))
        : new Set(rows.map((s) => s.County));
      for (const h of hud.filter((x) => counties.has(x.COUNTY)))
        expect(priced, `${p.StandardComponentId} ${h.ZIP}`).toContain(zip3.get(h.ZIP.slice(0, 3)));
    }
  });

  it("keeps provider and formulary plan ids inside the Plan Attributes PUF", () => {
    const ids = new Set(pa.rows.map((r) => r.StandardComponentId));
    const issuer = listFiles(join(dirA, "mr"))[0].split(/[/\\]/)[0];
    const drugs = JSON.parse(readFileSync(join(dirA, "mr", issuer, "drugs.json"), "utf8"));
    const providers = JSON.parse(readFileSync(join(dirA, "mr", issuer, "providers.json"), "utf8"));
    expect(drugs.length).toBeGreaterThan(0);
    expect(providers.length).toBeGreaterThan(0);
    for (const d of drugs) for (const e of d.plans) expect(ids).toContain(e.plan_id);
    for (const p of providers) for (const e of p.plans) expect(ids).toContain(e.plan_id);
  });
});

describe("national world at full size", () => {
  it("is calibrated to ~20,000 plan variants and ~2.5 million rate rows", () => {
    const world = buildNationalWorld();
    const variants = world.plans.reduce((s, p) => s + p.variants.length, 0);
    expect(variants).toBeGreaterThan(19_000);
    expect(variants).toBeLessThan(21_000);
    // Rate PUF rows: 51 age rows per plan × area (NY: one Family Option row), plus the sentinel.
    const rateRows = world.plans.reduce((s, p) => s + p.ratesByArea.size * (p.issuer.state === "NY" ? 1 : 51), 0) + 1;
    expect(Math.abs(rateRows - 2_500_000)).toBeLessThan(50_000);
    expect(new Set(world.plans.map((p) => p.issuer.state)).size).toBe(30);
  }, 60_000);
});
