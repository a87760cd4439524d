/**
 * The source directory layout (docs/data.md, "Source directory layout"): the
 * real public files under fixed names. A directory holds one plan year; it may
 * instead hold one sub-directory per plan year (`2026/`, `2027/`) for the
 * year-specific files, with the geography files and states.csv at its root.
 * A year-specific file missing from a year directory is taken from the root.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { HeaderMap, csvRecords, sniffDelimiterOf } from "./readers/csv";

export const SOURCE_FILES = {
  states: "states.csv",
  counties: "national-county2020.txt",
  zipCountyHud: "zip-county-hud.csv",
  zctaCountyCensus: "zcta-county-census2020.txt",
  ratingAreasByCounty: "rating-areas-by-county.csv",
  ratingAreasByZip3: "rating-areas-by-zip3.csv",
  planAttributes: "plan-attributes-puf.csv",
  rates: "rate-puf.csv",
  benefits: "benefits-and-cost-sharing-puf.csv",
  serviceAreas: "service-area-puf.csv",
  quality: "quality-puf.csv",
  network: "network-puf.csv",
  crosswalk: "plan-id-crosswalk-puf.csv",
  machineReadableDir: "mr",
} as const;

/** Marker file: its presence marks the directory's data as sample data. */
export const SAMPLE_MARKER = "SAMPLE-DATA";

const YEAR_SPECIFIC = [
  "ratingAreasByCounty",
  "ratingAreasByZip3",
  "planAttributes",
  "rates",
  "benefits",
  "serviceAreas",
  "quality",
  "network",
  "machineReadableDir",
] as const;
type YearSpecificKey = (typeof YEAR_SPECIFIC)[number];

export type MachineReadableFile = { kind: "plans" | "drugs" | "providers"; path: string; issuerDir: string };

export type YearSources = {
  year: number;
  /**
   * True when this year is one of several found in a flat directory's files:
   * a file without rows of it is then read as empty (the gate judges what is
   * missing) rather than refused as a file of another year.
   */
  foundAmongSeveral?: boolean;
  files: Partial<Record<Exclude<YearSpecificKey, "machineReadableDir">, string>>;
  machineReadable: MachineReadableFile[];
};

export type SourceLayout = {
  root: string;
  sample: boolean;
  states?: string;
  counties?: string;
  zipCountyHud?: string;
  zctaCountyCensus?: string;
  /**
   * Plan ID Crosswalk PUFs (root, then year directories): each maps the plans
   * of the year before to those of the year its header names (decision 340).
   */
  crosswalks: string[];
  years: YearSources[];
  /** Every file that will be read, for progress totals. */
  allFiles: string[];
};

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** mr/<issuer>/plans*.json, drugs*.json, providers*.json, sorted so that loads are deterministic. */
function machineReadableFiles(mrDir: string): MachineReadableFile[] {
  if (!isDir(mrDir)) return [];
  const out: MachineReadableFile[] = [];
  for (const issuer of readdirSync(mrDir).sort()) {
    const dir = path.join(mrDir, issuer);
    if (!isDir(dir)) continue;
    const names = readdirSync(dir).sort();
    for (const kind of ["plans", "drugs", "providers"] as const) {
      const pattern = new RegExp(`^${kind}([-_.][A-Za-z0-9_.-]*)?\\.json$`);
      for (const name of names)
        if (pattern.test(name) && isFile(path.join(dir, name)))
          out.push({ kind, path: path.join(dir, name), issuerDir: issuer });
    }
  }
  return out;
}

/** Every BusinessYear in a PUF's rows (not only the first row's), ascending; empty without the column. */
export async function businessYearsOf(file: string): Promise<number[]> {
  let header: HeaderMap | null = null;
  let column = -1;
  const years = new Set<number>();
  for await (const record of csvRecords(file, { delimiter: await sniffDelimiterOf(file) })) {
    if (!header) {
      header = new HeaderMap(record.fields);
      column = header.find("BusinessYear");
      if (column === -1) return [];
      continue;
    }
    const v = (record.fields[column] ?? "").trim();
    if (/^[0-9]{4}$/.test(v)) years.add(Number(v));
  }
  return [...years].sort((a, b) => a - b);
}

export class SourceLayoutError extends Error {}

export async function resolveSources(
  root: string,
  options: { year?: number; sample?: boolean } = {},
): Promise<SourceLayout> {
  const dir = path.resolve(root);
  if (!isDir(dir)) throw new SourceLayoutError(`source directory not found: ${root}`);
  // A file may also be there zipped, as CMS publishes the PUFs: plan-attributes-puf.zip.
  const at = (base: string, name: string) => {
    for (const candidate of [name, name.replace(/\.(csv|txt)$/i, ".zip")])
      if (isFile(path.join(base, candidate))) return path.join(base, candidate);
    return undefined;
  };
  const sample = Boolean(options.sample) || existsSync(path.join(dir, SAMPLE_MARKER));

  const yearDirs = readdirSync(dir)
    .filter((name) => /^[0-9]{4}$/.test(name) && isDir(path.join(dir, name)))
    .map(Number)
    .sort((a, b) => a - b);

  const yearSources = (year: number, base: string): YearSources => {
    const files: YearSources["files"] = {};
    for (const key of YEAR_SPECIFIC) {
      if (key === "machineReadableDir") continue;
      const found = at(base, SOURCE_FILES[key]) ?? at(dir, SOURCE_FILES[key]);
      if (found) files[key] = found;
    }
    const mrBase = isDir(path.join(base, SOURCE_FILES.machineReadableDir)) ? base : dir;
    return { year, files, machineReadable: machineReadableFiles(path.join(mrBase, SOURCE_FILES.machineReadableDir)) };
  };

  let years: YearSources[];
  if (yearDirs.length > 0) {
    // The root's own Plan Attributes PUF may hold further years than the directories (the
    // bundled sample: 2027 at the root, 2026 in 2026/; decision 341): those load from the root.
    const rootPlans = at(dir, SOURCE_FILES.planAttributes);
    const rootYears = rootPlans ? (await businessYearsOf(rootPlans)).filter((y) => !yearDirs.includes(y)) : [];
    const all = [...yearDirs, ...rootYears].sort((a, b) => a - b);
    const wanted = options.year === undefined ? all : all.filter((y) => y === options.year);
    if (wanted.length === 0)
      throw new SourceLayoutError(`no ${options.year} directory in ${root} (found ${yearDirs.join(", ")})`);
    years = wanted.map((y) => yearSources(y, yearDirs.includes(y) ? path.join(dir, String(y)) : dir));
  } else {
    // A flat directory: --year, else every BusinessYear of the first PUF present (the
    // whole file is read, not its first row). Each year found is loaded on its own, the
    // files read once per year; a file with no row of a year is then refused (runCsv).
    let found: number[] = options.year === undefined ? [] : [options.year];
    if (options.year === undefined) {
      for (const key of ["planAttributes", "rates", "serviceAreas", "benefits", "network"] as const) {
        const file = at(dir, SOURCE_FILES[key]);
        if (file) found = await businessYearsOf(file);
        if (found.length > 0) break;
      }
    }
    const hasYearFiles = YEAR_SPECIFIC.some((k) =>
      k === "machineReadableDir" ? isDir(path.join(dir, "mr")) : at(dir, SOURCE_FILES[k]),
    );
    if (found.length === 0 && hasYearFiles) {
      throw new SourceLayoutError("cannot tell the plan year from the files (no BusinessYear): pass --year YYYY");
    }
    years = found.map((y) => ({ ...yearSources(y, dir), foundAmongSeveral: found.length > 1 }));
  }

  const layout: SourceLayout = {
    root: dir,
    sample,
    states: at(dir, SOURCE_FILES.states),
    counties: at(dir, SOURCE_FILES.counties),
    zipCountyHud: at(dir, SOURCE_FILES.zipCountyHud),
    zctaCountyCensus: at(dir, SOURCE_FILES.zctaCountyCensus),
    crosswalks: [dir, ...years.filter((y) => yearDirs.includes(y.year)).map((y) => path.join(dir, String(y.year)))]
      .map((base) => at(base, SOURCE_FILES.crosswalk))
      .filter((f): f is string => f !== undefined),
    years,
    allFiles: [],
  };
  const all = new Set<string>();
  for (const f of [layout.states, layout.counties, layout.zipCountyHud, layout.zctaCountyCensus, ...layout.crosswalks])
    if (f) all.add(f);
  for (const y of years) {
    for (const f of Object.values(y.files)) if (f) all.add(f);
    for (const m of y.machineReadable) all.add(m.path);
  }
  layout.allFiles = [...all];
  if (layout.allFiles.length === 0)
    throw new SourceLayoutError(`no source files found in ${root} (see docs/data.md for the expected names)`);
  return layout;
}
