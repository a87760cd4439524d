/**
 * Writes the year before a generated world into `<dir>/<year-1>/` (the PUFs;
 * for the sample also the issuers' machine-readable files) and the Plan ID
 * Crosswalk from it to the world at `<dir>/plan-id-crosswalk-puf.csv`
 * (decision 341). The national set leaves the earlier year's machine-readable
 * files out: they would add about 15 M formulary and provider rows to a load
 * whose renewal answers need only prices and plan designs to be measured.
 */
import { join } from "node:path";
import type { World } from "./model";
import { buildPriorYear, defaultPriorYearSpec } from "./prior-year";
import { writeCrosswalk } from "./write-crosswalk";
import { writeMachineReadable } from "./write-mr";
import {
  type FileSummary,
  writeBenefits,
  writeNetworks,
  writePlanAttributes,
  writeQuality,
  writeRates,
  writeServiceAreas,
} from "./write-puf";

export function writePriorYear(later: World, dir: string): FileSummary[] {
  const spec = defaultPriorYearSpec(later, { exitingIssuer: "Lone Star Cooperative Health", slug: "lonestarcoop" });
  const { world, crosswalk } = buildPriorYear(later, spec);
  const yearDir = join(dir, String(world.year));
  const files: FileSummary[] = [
    writePlanAttributes(world, yearDir),
    writeRates(world, yearDir),
    writeBenefits(world, yearDir),
    writeServiceAreas(world, yearDir),
    writeQuality(world, yearDir),
    writeNetworks(world, yearDir),
  ];
  if (later.scale === "sample") {
    const mr = writeMachineReadable(world, yearDir);
    for (const f of mr.files) files.push({ file: f.file, rows: f.items, bytes: f.bytes });
  }
  files.push(writeCrosswalk(crosswalk, world.year, later.year, dir));
  return files;
}
