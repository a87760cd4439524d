import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { resetUpstreamClientForTests } from "../../../app/server/upstream/client.server";
import { forgetEligibilityAnswers } from "../../../app/server/shopping/eligibility.server";
import { parseCsv } from "../../../mocks/cms-api/csv";
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamCall } from "../../../mocks/cms-api/index";
import { REPO_ROOT, TEST_PLAN_STORE } from "../../helpers/server";

/**
 * Shared set-up of the shopping route tests: the routes read the test plan
 * store (tests/global-setup.ts builds it from seed/sample) and call a fake
 * upstream that serves the same sample files over real HTTP.
 */

export const UPSTREAM_KEY = "shopping-test-upstream-key-0123";
export const SAMPLE_DIR = path.join(REPO_ROOT, "seed", "sample");
export const YEAR = 2027;

/** Point the service at a plan store and the fake upstream; env and singletons read afresh. */
export function configureShopping(settings: { planStore?: string; upstreamUrl?: string }): void {
  const values: Record<string, string | undefined> = {
    LOG_LEVEL: "silent",
    PLAN_STORE_PATH: settings.planStore ?? TEST_PLAN_STORE,
    MARKETPLACE_API_BASE_URL: settings.upstreamUrl,
    MARKETPLACE_API_KEY: settings.upstreamUrl ? UPSTREAM_KEY : undefined,
    UPSTREAM_IS_SAMPLE: undefined,
    UPSTREAM_TIMEOUT_MS: undefined,
    UPSTREAM_MAX_CONCURRENCY: undefined,
  };
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
  resetUpstreamClientForTests();
  resetPlanStoreForTests();
}

export async function startShoppingFake(planStore?: string): Promise<FakeUpstream> {
  const fake = await startFakeUpstream({ apiKey: UPSTREAM_KEY, dataDir: SAMPLE_DIR });
  configureShopping({ planStore, upstreamUrl: fake.url });
  return fake;
}

/**
 * The fake upstream for a whole test file: started once, and before every test reset (no calls
 * recorded, answering normally) with the kept eligibility answers forgotten (decision 120: each
 * test asks afresh). `upstream.fake` is the running fake inside tests.
 */
export function withShoppingFake(): { readonly fake: FakeUpstream } {
  let started: FakeUpstream | undefined;
  beforeAll(async () => {
    started = await startShoppingFake();
  });
  afterAll(() => started?.close());
  beforeEach(async () => {
    started!.reset();
    await started!.setMode("normal");
    forgetEligibilityAnswers();
  });
  return {
    get fake() {
      if (!started) throw new Error("the shopping fake is used outside a test");
      return started;
    },
  };
}

/** A private copy of the test plan store, changed by `edit` (the shared file is never written). */
export function editedStoreCopy(edit: (db: Database.Database) => void): { file: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shopping-store-"));
  const file = path.join(dir, "plan-store.sqlite");
  copyFileSync(TEST_PLAN_STORE, file);
  const db = new Database(file);
  try {
    edit(db);
  } finally {
    db.close();
  }
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copy every year-keyed row of plan year `from` to `to` (a store that also "has" another year). */
export function copyPlanYear(db: Database.Database, from: number, to: number): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const columns = (db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>).map((c) => c.name);
    if (!columns.includes("plan_year")) continue;
    const list = columns.map((c) => `"${c}"`).join(", ");
    const values = columns.map((c) => (c === "plan_year" ? "?" : `"${c}"`)).join(", ");
    db.prepare(`INSERT OR IGNORE INTO "${name}" (${list}) SELECT ${values} FROM "${name}" WHERE plan_year = ?`).run(
      to,
      from,
    );
  }
}

/** Delete every year-keyed row of plan year `year` (a store that holds the other years only). */
export function dropPlanYear(db: Database.Database, year: number): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const columns = (db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>).map((c) => c.name);
    if (columns.includes("plan_year")) db.prepare(`DELETE FROM "${name}" WHERE plan_year = ?`).run(year);
  }
}

// ---------------------------------------------------------------- route calls

type RouteArgs = { request: Request; params: Record<string, string | undefined>; context: unknown };
export type RouteModule = {
  loader: (args: RouteArgs) => Promise<Response> | Response;
  action: (args: RouteArgs) => Promise<Response> | Response;
};

// Answers are read loosely: each test asserts the fields it cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export async function postJson(
  route: RouteModule,
  urlPath: string,
  body: unknown,
): Promise<{ status: number; body: Body; headers: Headers }> {
  const request = new Request(`http://localhost${urlPath}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await route.action({ request, params: {}, context: {} });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

export async function getJson(
  route: RouteModule,
  urlPathAndQuery: string,
): Promise<{ status: number; body: Body; headers: Headers }> {
  const response = await route.loader({
    request: new Request(`http://localhost${urlPathAndQuery}`),
    params: {},
    context: {},
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

export const upstreamCalls = (fake: FakeUpstream, fragment: string): FakeUpstreamCall[] =>
  fake.calls.filter((c) => c.path.includes(fragment));

// ---------------------------------------------------------------- households

export type PersonIn = {
  age: number;
  relationship?: "self" | "spouse" | "child" | "other";
  uses_tobacco?: boolean;
  medicare_eligible?: boolean;
};

export const self = (age: number, uses_tobacco = false): PersonIn => ({ age, relationship: "self", uses_tobacco });
export const spouse = (age: number, uses_tobacco = false): PersonIn => ({ age, relationship: "spouse", uses_tobacco });
export const child = (age: number): PersonIn => ({ age, relationship: "child" });

export function shoppingBody(
  place: { state: string; county_fips: string; zip: string },
  people: PersonIn[],
  income: number,
  extra: Record<string, unknown> = {},
) {
  return { income, household: { people }, place, year: YEAR, ...extra };
}

export const PLACES = {
  kings: { state: "NY", county_fips: "36047", zip: "11201" },
  newYork: { state: "NY", county_fips: "36061", zip: "10001" },
  queens: { state: "NY", county_fips: "36081", zip: "11375" },
  albany: { state: "NY", county_fips: "36001", zip: "12203" },
  dallas: { state: "TX", county_fips: "48113", zip: "75201" },
  travisInList: { state: "TX", county_fips: "48453", zip: "78701" },
  travisOutside: { state: "TX", county_fips: "48453", zip: "78758" },
} as const;

// ---------------------------------------------------------------- hand calculation

/** Dollars to cents, half up, written independently of the service's roundCents. */
export function cents(x: number): number {
  return Math.round(Number((x * 100).toPrecision(12))) / 100;
}

const csvCache = new Map<string, Array<Record<string, string>>>();
/** Rows of a sample file, keyed by lower-cased header name. */
export function sampleCsv(name: string): Array<Record<string, string>> {
  let rows = csvCache.get(name);
  if (!rows) {
    rows = parseCsv(readFileSync(path.join(SAMPLE_DIR, name), "utf8"));
    csvCache.set(name, rows);
  }
  return rows;
}

function rateRow(planId: string, ratingArea: number, age: string): Record<string, string> {
  const rows = sampleCsv("rate-puf.csv").filter(
    (r) =>
      r.businessyear === String(YEAR) &&
      r.planid === planId &&
      r.ratingareaid === `Rating Area ${ratingArea}` &&
      r.age === age,
  );
  if (rows.length !== 1)
    throw new Error(`rate-puf.csv: ${rows.length} rows for ${planId} area ${ratingArea} age ${age}`);
  return rows[0];
}

/** Monthly rate of a plan for one Rate PUF age label in a rating area (tobacco rate when asked and given). */
export function sampleRate(planId: string, ratingArea: number, age: string, tobacco = false): number {
  const row = rateRow(planId, ratingArea, age);
  if (tobacco && row.individualtobaccorate) return Number(row.individualtobaccorate);
  return Number(row.individualrate);
}

/** The single-adult rate of a NY "Family Option" row. */
export function sampleFamilyOptionRate(planId: string, ratingArea: number): number {
  return Number(rateRow(planId, ratingArea, "Family Option").individualrate);
}

/** Plan Attributes EHBPercentTotalPremium of a plan's on-exchange (-01) variant. */
export function sampleEhbShare(planId: string): number {
  const row = sampleCsv("plan-attributes-puf.csv").find(
    (r) => r.businessyear === String(YEAR) && r.planid === `${planId}-01`,
  );
  if (!row) throw new Error(`plan-attributes-puf.csv: no ${planId}-01`);
  return Number(row.ehbpercenttotalpremium);
}

/** Plan Attributes row of a plan variant (deductibles and MOOPs of CSR variants); keys are lower-cased headers. */
export function sampleVariant(variantId: string): Record<string, string> {
  const row = sampleCsv("plan-attributes-puf.csv").find(
    (r) => r.businessyear === String(YEAR) && r.planid === variantId,
  );
  if (!row) throw new Error(`plan-attributes-puf.csv: no ${variantId}`);
  return row;
}

/** "$4,400 " → 4400. */
export function dollars(text: string): number {
  return Number(text.replace(/[$,\s]/g, ""));
}

/** 2026 HHS poverty guideline, 48 states + DC: $15,960 + $5,680 per person after the first (aca-parameters.json). */
export function guideline2026(size: number): number {
  return 15_960 + 5_680 * (size - 1);
}

/**
 * 2027 applicable percentage (Rev. Proc. 2026-26 §3.01; eligibility-rules.md §2), by hand:
 * whole FPL percent, linear within the band, rounded to 0.01 percentage point.
 *   < 133: 2.15 flat · 133–150: 3.23→4.30 · 150–200: 4.30→6.78 · 200–250: 6.78→8.66
 *   250–300: 8.66→10.22 · 300–400 (400 included): 10.22 flat · above 400: no credit
 */
export function applicablePercent2027(fplPercent: number): number | null {
  const bands: Array<[number, number, number, number]> = [
    [0, 133, 2.15, 2.15],
    [133, 150, 3.23, 4.3],
    [150, 200, 4.3, 6.78],
    [200, 250, 6.78, 8.66],
    [250, 300, 8.66, 10.22],
    [300, 400, 10.22, 10.22],
  ];
  for (const [from, to, initial, final] of bands) {
    if (fplPercent >= from && (fplPercent < to || (to === 400 && fplPercent === 400))) {
      const pct = initial + ((fplPercent - from) / (to - from)) * (final - initial);
      return Math.round(pct * 100) / 10_000; // percent rounded to 0.01 point, as a fraction
    }
  }
  return null;
}
