/**
 * Retired and renamed county codes, mapped to their successors from
 * seed/reference/county-code-changes.csv (the Census Bureau's list of
 * substantial changes to counties; Connecticut's 2022 planning regions).
 * HUD crosswalks still carry some retired codes (Alaska 02261, 02270); left
 * alone they name counties that no plan serves and no county list names.
 *
 * - renamed / merged: one successor, the code is replaced.
 * - split: the retired county is exactly the union of its successors. A
 *   service-area or rating-area row covers every successor; a ZIP goes to the
 *   successors that other crosswalk rows name for that ZIP, its share split in
 *   their proportion (a ZIP no row places is kept under the retired code).
 * - realigned (Connecticut): the planning regions do not nest in the old
 *   counties, so only a ZIP another row places in a region is moved; an area
 *   row keeps its code. Both are counted.
 * Every mapping is counted in the file's notes in the seed report.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type CountyChange = {
  retired: string;
  successors: string[];
  kind: "renamed" | "merged" | "split" | "realigned";
  effective: string;
  description: string;
};

export const COUNTY_CHANGES_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "reference/county-code-changes.csv",
);

export function loadCountyChanges(file = COUNTY_CHANGES_FILE): Map<string, CountyChange> {
  const out = new Map<string, CountyChange>();
  const [, ...lines] = readFileSync(file, "utf8").split(/\r?\n/);
  for (const line of lines) {
    if (line.trim() === "") continue;
    const [retired, successors, kind, effective, ...rest] = line.split(",");
    out.set(retired, {
      retired,
      successors: successors.trim().split(/\s+/),
      kind: kind as CountyChange["kind"],
      effective,
      description: rest.join(","),
    });
  }
  return out;
}

const year = (c: CountyChange) => c.effective.slice(0, 4);

/** The remark counted for a mapped code, e.g. "county 02270 (retired 2015) mapped to 02158". */
export function mappedRemark(c: CountyChange, to: string[]): string {
  return `county ${c.retired} (retired ${year(c)}) mapped to ${to.join(", ")}`;
}

export function keptRemark(c: CountyChange, why: string): string {
  return `county ${c.retired} (retired ${year(c)}) kept: ${why}`;
}

/**
 * The codes a service-area or rating-area row for `fips` stands for: the
 * successors of a renamed, merged or split county; the code itself otherwise.
 */
export function areaCounties(
  changes: Map<string, CountyChange>,
  fips: string,
  known: (fips: string) => boolean = () => true,
): { codes: string[]; remark?: string } {
  const c = changes.get(fips);
  if (!c) return { codes: [fips] };
  if (c.kind === "realigned") return { codes: [fips], remark: keptRemark(c, "its successors do not nest in it") };
  if (!c.successors.every(known)) return { codes: [fips], remark: keptRemark(c, UNKNOWN_SUCCESSOR) };
  return { codes: c.successors, remark: mappedRemark(c, c.successors) };
}

/**
 * A successor this load's geography does not know (not in the county list or
 * the crosswalks): the files are of an older vintage, or made up, and use the
 * old code consistently, so it is kept.
 */
const UNKNOWN_SUCCESSOR = "its successor is in neither the county list nor the crosswalks of this load";

export type StagedZipCounty = { rowid: number; source: string; zip: string; countyFips: string; share: number };

export type ZipRemap =
  | { kind: "replace"; rowid: number; to: Array<{ countyFips: string; share: number }>; remark: string }
  | { kind: "keep"; rowid: number; remark: string };

/**
 * Decides, for each staged ZIP→county row with a retired code, what replaces
 * it. `others` are the staged rows of the same ZIPs with current codes (any
 * source): the evidence of where a ZIP of a split county lies.
 */
export function remapZipCounties(
  changes: Map<string, CountyChange>,
  retired: StagedZipCounty[],
  others: StagedZipCounty[],
  known: (fips: string) => boolean = () => true,
): ZipRemap[] {
  const byZip = new Map<string, Map<string, number>>();
  for (const o of others) {
    let m = byZip.get(o.zip);
    if (!m) byZip.set(o.zip, (m = new Map()));
    m.set(o.countyFips, Math.max(m.get(o.countyFips) ?? 0, o.share));
  }
  const out: ZipRemap[] = [];
  for (const r of retired) {
    const c = changes.get(r.countyFips)!;
    if (c.successors.length === 1 && !known(c.successors[0])) {
      out.push({ kind: "keep", rowid: r.rowid, remark: keptRemark(c, UNKNOWN_SUCCESSOR) });
      continue;
    }
    if (c.successors.length === 1) {
      out.push({
        kind: "replace",
        rowid: r.rowid,
        to: [{ countyFips: c.successors[0], share: r.share }],
        remark: mappedRemark(c, c.successors),
      });
      continue;
    }
    const named = byZip.get(r.zip);
    const evidence = c.successors.filter((s) => named?.has(s));
    if (evidence.length === 0) {
      out.push({ kind: "keep", rowid: r.rowid, remark: keptRemark(c, "no other row places the ZIP in a successor") });
      continue;
    }
    const weights = evidence.map((s) => named!.get(s)!);
    const total = weights.reduce((a, b) => a + b, 0);
    out.push({
      kind: "replace",
      rowid: r.rowid,
      to: evidence.map((s, i) => ({
        countyFips: s,
        share: total > 0 ? (r.share * weights[i]) / total : r.share / evidence.length,
      })),
      remark: mappedRemark(c, evidence),
    });
  }
  return out;
}
