/**
 * Writes a Plan ID Crosswalk PUF (PY2026 layout) into a test source directory
 * that maps every individual-market plan of `from` to the same plan id in
 * `to` (CrosswalkLevel 0, ReasonForCrosswalk 0), one whole-county row per
 * plan in a county of its state: what a two-year store needs to pass the gate.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { planAttributesFormat } from "../../../seed/readers/plan-attributes";
import { collectCsv } from "../../../seed/readers/run";

export function crosswalkHeader(from: number, to: number): string {
  return [
    "State",
    "DentalPlan",
    `PlanID_${from}`,
    `IssuerID_${from}`,
    `MultistatePlan_${from}`,
    `MetalLevel_${from}`,
    `ChildAdultOnly_${from}`,
    "FIPSCode",
    "ZipCode",
    "CrosswalkLevel",
    "ReasonForCrosswalk",
    `PlanID_${to}`,
    `IssuerID_${to}`,
    `MultistatePlan_${to}`,
    `MetalLevel_${to}`,
    `ChildAdultOnly_${to}`,
    `AgeOffPlanID_${to}`,
    `IssuerID_AgeOff${to}`,
    `MultistatePlan_AgeOff${to}`,
    `MetalLevel_AgeOff${to}`,
    `ChildAdultOnly_AgeOff${to}`,
    "ReasonForBronzeToSilverCrosswalk",
    `SilverCSREligPlanID_${to}`,
    `SilverCSREligIssuerID_${to}`,
  ].join(",");
}

const COUNTY_OF_STATE: Record<string, string> = { TX: "48453", NY: "36047", AK: "02020", NE: "31055", OK: "40143" };

export async function writeSameIdCrosswalk(srcDir: string, from: number, to: number, outDir = srcDir): Promise<number> {
  const { rows } = await collectCsv(path.join(srcDir, "plan-attributes-puf.csv"), planAttributesFormat, {
    year: from,
    yearMayBeAbsent: true,
  });
  const seen = new Set<string>();
  const lines = [crosswalkHeader(from, to)];
  for (const r of rows) {
    if (seen.has(r.planId)) continue;
    seen.add(r.planId);
    const county = COUNTY_OF_STATE[r.state] ?? "48453";
    const metal = r.plan.metalLevel;
    lines.push(
      `${r.state},N,${r.planId},${r.issuerId},N,${metal},0,${county},00000,0,0,${r.planId},${r.issuerId},N,${metal},0,00000XX0000000,0,X,X,X,,,`,
    );
  }
  writeFileSync(path.join(outDir, "plan-id-crosswalk-puf.csv"), lines.join("\n") + "\n");
  return seen.size;
}
