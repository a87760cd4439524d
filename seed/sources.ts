/**
 * The source directory layout (docs/data.md, "Source directory layout"): the
 * real public files under fixed names. A directory holds one plan year; it may
 * instead hold one sub-directory per plan year (`2026/`, `2027/`) for the
 * year-specific files, with the geography files and states.csv at its root.
 * A year-specific file missing from a year directory is taken from the root.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { HeaderMap, csvRecords, sniffDelimiter } from "./readers/csv";

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

/** The first BusinessYear found in the first data row of a PUF, or undefined. */
async function businessYearOf(file: string): Promise<number | undefined> {
  let header: HeaderMap | null = null;
  for await (const record of csvRecords(file, { delimiter: sniffDelimiter(file) })) {
    if (!header) {
      header = new HeaderMap(record.fields);
      if (!header.has("BusinessYear")) return undefined;
      continue;
    }
    const v = (record.fields[header.find("BusinessYear")] ?? "").trim();
    return /^[0-9]{4}$/.test(v) ? Number(v) : undefined;
  }
  return undefined;
}

export class SourceLayoutError extends Error {}

export async function resolveSources(
  root: string,
  options: { year?: number; sample?: boolean } = {},
): Promise<SourceLayout> {
  const dir = path.resolve(root);
  if (!isDir(dir)) throw new SourceLayoutError(`source directory not found: ${root}`);
  const at = (base: string, name: string) => (isFile(path.join(base, name)) ? path.join(base, name) : undefined);
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
    const wanted = options.year === undefined ? yearDirs : yearDirs.filter((y) => y === options.year);
    if (wanted.length === 0)
      throw new SourceLayoutError(`no ${options.year} directory in ${root} (found ${yearDirs.join(", ")})`);
    years = wanted.map((y) => yearSources(y, path.join(dir, String(y))));
  } else {
    let year = options.year;
    if (year === undefined) {
      for (const key of ["planAttributes", "rates", "serviceAreas", "benefits", "network"] as const) {
        const file = at(dir, SOURCE_FILES[key]);
        if (file) year = await businessYearOf(file);
        if (year !== undefined) break;
      }
    }
    const hasYearFiles = YEAR_SPECIFIC.some((k) =>
      k === "machineReadableDir" ? isDir(path.join(dir, "mr")) : at(dir, SOURCE_FILES[k]),
    );
    if (year === undefined && hasYearFiles) {
      throw new SourceLayoutError("cannot tell the plan year from the files (no BusinessYear): pass --year YYYY");
    }
    years = year === undefined ? [] : [yearSources(year, dir)];
  }

  const layout: SourceLayout = {
    root: dir,
    sample,
    states: at(dir, SOURCE_FILES.states),
    counties: at(dir, SOURCE_FILES.counties),
    zipCountyHud: at(dir, SOURCE_FILES.zipCountyHud),
    zctaCountyCensus: at(dir, SOURCE_FILES.zctaCountyCensus),
    years,
    allFiles: [],
  };
  const all = new Set<string>();
  for (const f of [layout.states, layout.counties, layout.zipCountyHud, layout.zctaCountyCensus]) if (f) all.add(f);
  for (const y of years) {
    for (const f of Object.values(y.files)) if (f) all.add(f);
    for (const m of y.machineReadable) all.add(m.path);
  }
  layout.allFiles = [...all];
  if (layout.allFiles.length === 0)
    throw new SourceLayoutError(`no source files found in ${root} (see docs/data.md for the expected names)`);
  return layout;
}
