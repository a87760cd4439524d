/**
 * Writes the Plan ID Crosswalk PUF (plan-id-crosswalk-puf.csv) of a generated
 * earlier year → later year, in the PY2026 layout (24 columns, the years in
 * the column names; seed/reference/puf-column-headers.json) with the files'
 * "no plan" conventions: `00000XX0000000`, `0` and `X` (decision 340).
 */
import { join } from "node:path";
import type { Plan } from "./model";
import { CsvFile } from "./output";
import { headerList } from "./reference";
import type { CrosswalkRow } from "./prior-year";
import type { FileSummary } from "./write-puf";

/** The no-plan columns of a row without a target (and of the age-off columns, which the generator never fills). */
const NO_PLAN = ["00000XX0000000", "0", "X", "X", "X"];

/** The PY2026 header with 2025/2026 replaced by the two years given. */
export function crosswalkHeader(from: number, to: number): string[] {
  return headerList("plan_id_crosswalk_puf", "PY2026 (PY2025 to PY2026)").map((h) =>
    h.replace(/2026/g, String(to)).replace(/2025/g, String(from)),
  );
}

/** ChildAdultOnly: 0 = adults and children, 1 = adults only, 2 = children only (Plan Attributes' ChildOnlyOffering). */
const childAdult = (_plan: Plan) => "0";

export function writeCrosswalk(rows: CrosswalkRow[], from: number, to: number, dir: string): FileSummary {
  const file = new CsvFile(join(dir, "plan-id-crosswalk-puf.csv"), crosswalkHeader(from, to));
  for (const r of rows) {
    const target = r.to ? [r.to.id, r.to.issuer.id, "N", r.to.metal, childAdult(r.to)] : NO_PLAN;
    file.array([
      r.state,
      "N",
      r.from.id,
      r.from.issuer.id,
      "N",
      r.from.metal,
      childAdult(r.from),
      r.county,
      r.zip ?? "00000",
      String(r.level),
      String(r.reason),
      ...target,
      ...NO_PLAN,
      "",
      "",
      "",
    ]);
  }
  const s = file.close();
  return { file: s.path, rows: s.rows, bytes: s.bytes };
}
