/**
 * Data for `npm run bench` (scripts/bench.ts): the national-scale source
 * directory, the plan store loaded from it, the benchmark scenario read from
 * that store, and the trimmed source directory the fake upstream serves.
 *
 * A store is reused only when its marker file says it was loaded from the
 * same generator output (every source file's path, size and modification
 * time) by the same loader code (the seed pipeline and the store schema);
 * anything else, or no store at all (a fresh clone), loads it again.
 */
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  copyFileSync,
  createWriteStream,
} from "node:fs";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** What the benchmark asks for: the county with the most plans, a ZIP in it, five drugs. */
export type Scenario = {
  year: number;
  state: string;
  countyFips: string;
  countyName: string;
  zip: string;
  /** The county's rating area number ("Rating Area N"). */
  ratingArea: number;
  /** Plans offered in the county by the store's service areas (the answer may price fewer). */
  plansInCounty: number;
  rxcuis: string[];
};

type Marker = {
  fingerprint: string;
  loadedAt: string;
  loadSeconds: number;
  scenario?: Scenario;
  upstreamDir?: string;
};

// ---------------------------------------------------------------- child processes

/** Runs `node --import tsx <script> …` in the repository, output passed through; rejects on a non-zero exit. */
export function runTsx(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code === 0) done(seconds);
      else fail(new Error(`${script} ${args.join(" ")} exited with status ${code}`));
    });
  });
}

// ---------------------------------------------------------------- source and store

/** Generates the national-scale source directory when it is missing (or when asked to). */
export async function ensureNationalSource(dir: string, regenerate: boolean): Promise<number | null> {
  if (!regenerate && existsSync(join(dir, "plan-attributes-puf.csv")) && existsSync(join(dir, "rate-puf.csv")))
    return null;
  console.log(`bench: generating the national-scale data into ${relative(ROOT, dir) || dir} (about 35 s) ...`);
  return runTsx("seed/synth.ts", ["--scale", "national", "--out", dir]);
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Loader code whose change makes an old store stale: the seed pipeline and the store schema. */
const LOADER_CODE = ["seed", "seed/readers", "db"];

/** Same generator output and same loader: the identity of a loaded store. */
export function storeFingerprint(sourceDir: string): string {
  const hash = createHash("sha256");
  for (const file of listFiles(sourceDir)) {
    const s = statSync(file);
    hash.update(`${relative(sourceDir, file)}\0${s.size}\0${Math.round(s.mtimeMs)}\n`);
  }
  for (const dir of LOADER_CODE) {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
      if (dir === "db" && !name.startsWith("plan-store")) continue;
      hash.update(`${dir}/${name}\0`);
      hash.update(readFileSync(join(ROOT, dir, name)));
    }
  }
  return hash.digest("hex");
}

function readMarker(file: string): Marker | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Marker;
  } catch {
    return null;
  }
}

const markerOf = (storeFile: string) => `${storeFile}.bench.json`;

/** The plan store for `sourceDir` at `storeFile`, loaded unless the marker matches. */
export async function ensureStore(
  sourceDir: string,
  storeFile: string,
  /** Use a loaded store whatever its fingerprint (npm run bench -- --keep-store). */
  keep = false,
): Promise<{ reused: boolean; kept?: boolean; loadSeconds: number; marker: Marker }> {
  const fingerprint = storeFingerprint(sourceDir);
  const marker = readMarker(markerOf(storeFile));
  if (marker && marker.fingerprint === fingerprint && existsSync(storeFile))
    return { reused: true, loadSeconds: marker.loadSeconds, marker };
  if (keep && marker && existsSync(storeFile))
    return { reused: true, kept: true, loadSeconds: marker.loadSeconds, marker };
  console.log(`bench: loading ${relative(ROOT, sourceDir)} into ${relative(ROOT, storeFile)} (2-3 minutes) ...`);
  rmSync(markerOf(storeFile), { force: true });
  const loadSeconds = await runTsx("seed/cli.ts", ["--source", sourceDir, "--out", storeFile, "--quiet"]);
  const fresh: Marker = { fingerprint, loadedAt: new Date().toISOString(), loadSeconds };
  writeFileSync(markerOf(storeFile), JSON.stringify(fresh, null, 2));
  return { reused: false, loadSeconds, marker: fresh };
}

export function saveMarker(storeFile: string, marker: Marker): void {
  writeFileSync(markerOf(storeFile), JSON.stringify(marker, null, 2));
}

// ---------------------------------------------------------------- scenario

/**
 * The county with the most plans among the states whose plans we price
 * (owned data, not a state-based marketplace), its most representative ZIP,
 * and the five drugs listed by the most of its plans.
 */
export function pickScenario(storeFile: string): Scenario {
  const db = new Database(storeFile, { readonly: true, fileMustExist: true });
  try {
    const { year } = db.prepare("SELECT max(plan_year) AS year FROM plans").get() as { year: number };
    const countyPlans = `
      SELECT DISTINCT p.plan_id
      FROM service_areas sa
      JOIN plans p ON p.plan_year = sa.plan_year AND p.issuer_id = sa.issuer_id AND p.service_area_id = sa.service_area_id
                  AND p.state = sa.state AND p.on_exchange = 1
      WHERE sa.plan_year = :year AND sa.state = :state AND (sa.cover_entire_state = 1 OR sa.county_fips = :county)`;
    const best = db
      .prepare(
        `SELECT c.fips AS fips, c.name AS name, c.state AS state, count(DISTINCT p.plan_id) AS plans
         FROM counties c
         JOIN states s ON s.plan_year = :year AND s.code = c.state AND s.owned_data = 1 AND s.exchange_kind <> 'sbe'
         JOIN rating_area_counties ra ON ra.plan_year = :year AND ra.county_fips = c.fips
         JOIN service_areas sa ON sa.plan_year = :year AND sa.state = c.state AND (sa.cover_entire_state = 1 OR sa.county_fips = c.fips)
         JOIN plans p ON p.plan_year = sa.plan_year AND p.issuer_id = sa.issuer_id AND p.service_area_id = sa.service_area_id
                     AND p.state = c.state AND p.on_exchange = 1
         GROUP BY c.fips ORDER BY plans DESC, c.fips LIMIT 1`,
      )
      .get({ year }) as { fips: string; name: string; state: string; plans: number } | undefined;
    if (!best) throw new Error("bench: no county with plans in the store");
    // A ZIP that lies mostly in the county (rank 1), so the county is its first answer.
    const zipRow = db
      .prepare("SELECT zip FROM zip_counties WHERE county_fips = ? ORDER BY rank, share DESC, zip LIMIT 1")
      .get(best.fips) as { zip: string } | undefined;
    if (!zipRow) throw new Error(`bench: no ZIP for county ${best.fips}`);
    const area = db
      .prepare("SELECT rating_area AS area FROM rating_area_counties WHERE plan_year = ? AND county_fips = ?")
      .get(year, best.fips) as { area: number };
    const drugs = db
      .prepare(
        `SELECT rxcui, count(DISTINCT plan_id) AS plans FROM formulary
         WHERE plan_year = :year AND plan_id IN (${countyPlans})
         GROUP BY rxcui ORDER BY plans DESC, rxcui LIMIT 5`,
      )
      .all({ year, state: best.state, county: best.fips }) as Array<{ rxcui: string }>;
    return {
      year,
      state: best.state,
      countyFips: best.fips,
      countyName: best.name,
      zip: zipRow.zip,
      ratingArea: area.area,
      plansInCounty: best.plans,
      rxcuis: drugs.map((d) => d.rxcui),
    };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- the fake upstream's data

/** Files the fake reads whole and that are small at national scale: copied as they are. */
const SMALL_FILES = [
  "national-county2020.txt",
  "zip-county-hud.csv",
  "zcta-county-census2020.txt",
  "rating-areas-by-county.csv",
  "rating-areas-by-zip3.csv",
];
/** CSV files with StateCode as the second column: only the scenario state's rows are kept. */
const STATE_FILES = ["plan-attributes-puf.csv", "service-area-puf.csv"];

/** Copies the header and the CSV records (quoted fields may span lines) that `keep` accepts. */
async function filterCsv(from: string, to: string, keep: (fields: string[]) => boolean): Promise<void> {
  const out = createWriteStream(to);
  const lines = createInterface({ input: createReadStream(from), crlfDelay: Infinity });
  let record = "";
  let quotes = 0;
  let header = true;
  for await (const line of lines) {
    record = record ? `${record}\n${line}` : line;
    for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) === 34) quotes++;
    if (quotes % 2 === 1) continue; // inside a quoted field: the record goes on
    if (header || keep(record.split(",", 12).map((f) => f.replace(/"/g, "")))) {
      if (!out.write(`${record}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    header = false;
    record = "";
    quotes = 0;
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/**
 * The fake upstream's source directory for a scenario: geography as it is,
 * plans, rates and service areas of the scenario's state, and the issuers'
 * drug lists cut down to the scenario's drugs (and the generics the fake
 * names for them). It answers eligibility and drug coverage for the
 * scenario's plans exactly as it would from the whole data set.
 */
export async function writeUpstreamDir(sourceDir: string, outDir: string, scenario: Scenario): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "mr"), { recursive: true });
  for (const name of SMALL_FILES)
    if (existsSync(join(sourceDir, name))) copyFileSync(join(sourceDir, name), join(outDir, name));
  for (const name of STATE_FILES) {
    if (existsSync(join(sourceDir, name)))
      await filterCsv(join(sourceDir, name), join(outDir, name), (f) => f[1] === scenario.state);
  }
  // Rates of the state's plans in the county's rating area only (RatingAreaId is the ninth column):
  // a big state's whole rate file would cost the fake gigabytes.
  const area = `Rating Area ${scenario.ratingArea}`;
  await filterCsv(
    join(sourceDir, "rate-puf.csv"),
    join(outDir, "rate-puf.csv"),
    (f) => f[1] === scenario.state && f[8] === area,
  );

  const issuers = new Set<string>();
  const planAttributes = readFileSync(join(outDir, "plan-attributes-puf.csv"), "utf8").split("\n").slice(1);
  for (const line of planAttributes) {
    const issuer = line.split(",", 3)[2]?.replace(/"/g, "");
    if (issuer) issuers.add(issuer.padStart(5, "0"));
  }
  const wanted = new Set(scenario.rxcuis);
  const mr = join(sourceDir, "mr");
  for (const issuer of existsSync(mr) ? readdirSync(mr).sort() : []) {
    if (!issuers.has(issuer)) continue;
    for (const name of readdirSync(join(mr, issuer))) {
      if (!name.startsWith("drugs") || !name.endsWith(".json")) continue;
      const items = JSON.parse(readFileSync(join(mr, issuer, name), "utf8")) as Array<{
        rxnorm_id?: unknown;
        drug_name?: unknown;
      }>;
      const chosen = items.filter((d) => wanted.has(String(d.rxnorm_id)));
      // A brand "… [Name]" is answered GenericCovered where its generic is listed.
      const generics = new Set(
        chosen
          .map((d) => String(d.drug_name ?? ""))
          .filter((n) => /\[[^\]]+\]\s*$/.test(n))
          .map((n) => n.replace(/\s*\[[^\]]+\]\s*$/, "").toLowerCase()),
      );
      const kept = items.filter(
        (d) =>
          wanted.has(String(d.rxnorm_id)) ||
          generics.has(
            String(d.drug_name ?? "")
              .trim()
              .toLowerCase(),
          ),
      );
      mkdirSync(join(outDir, "mr", issuer), { recursive: true });
      writeFileSync(join(outDir, "mr", issuer, name), JSON.stringify(kept));
    }
  }
  writeFileSync(
    join(outDir, "README.md"),
    `Trimmed copy of ${relative(ROOT, sourceDir)} for the fake upstream of npm run bench (${scenario.state}, drugs ${scenario.rxcuis.join(", ")}).\n`,
  );
}
