/**
 * The data generator: writes a source directory in the real public-file
 * formats (docs/data.md, "Source directory layout") from a deterministic
 * world: the bundled sample (`scale: "sample"`) or a national-scale
 * synthetic market (`scale: "national"`). Same seed, same bytes.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { World } from "./model";
import { buildNationalWorld, type NationalTargets } from "./national-world";
import { buildSampleWorld } from "./sample-world";
import { writeMachineReadable } from "./write-mr";
import {
  type FileSummary,
  writeBenefits,
  writeGeography,
  writeNetworks,
  writePlanAttributes,
  writeQuality,
  writeRates,
  writeServiceAreas,
} from "./write-puf";
import { SAMPLE_README, NATIONAL_README } from "./readme";
import { writePriorYear } from "./write-prior-year";

export type GenerateOptions = {
  scale: "sample" | "national";
  outDir: string;
  seed?: string;
  /** National scale only: shrink every target by this factor (tests use a small fraction). */
  fraction?: number;
  targets?: NationalTargets;
};

export type GenerateSummary = {
  scale: "sample" | "national";
  outDir: string;
  files: FileSummary[];
  counts: {
    states: number;
    counties: number;
    countiesWithPlans: number;
    zips: number;
    issuers: number;
    plans: number;
    planVariants: number;
    rateRows: number;
    benefitRows: number;
    formularyRows: number;
    providerNetworkRows: number;
    providers: number;
    drugs: number;
  };
};

/** Files the generator owns in an output directory (removed before writing, so nothing stale survives). */
const OWNED = [
  "plan-attributes-puf.csv",
  "rate-puf.csv",
  "benefits-and-cost-sharing-puf.csv",
  "service-area-puf.csv",
  "quality-puf.csv",
  "network-puf.csv",
  "zip-county-hud.csv",
  "zcta-county-census2020.txt",
  "national-county2020.txt",
  "rating-areas-by-county.csv",
  "rating-areas-by-zip3.csv",
  "states.csv",
  "README.md",
  "SAMPLE-DATA",
  "mr",
  "plan-id-crosswalk-puf.csv",
];

export function buildWorld(options: Pick<GenerateOptions, "scale" | "seed" | "fraction" | "targets">): World {
  return options.scale === "sample"
    ? buildSampleWorld(options.seed)
    : buildNationalWorld({ seed: options.seed, fraction: options.fraction, targets: options.targets });
}

export function generate(options: GenerateOptions): GenerateSummary {
  const world = buildWorld(options);
  const dir = options.outDir;
  mkdirSync(dir, { recursive: true });
  for (const name of [...OWNED, String(world.year - 1)]) {
    const p = join(dir, name);
    if (existsSync(p)) rmSync(p, { recursive: true, force: true });
  }

  const files: FileSummary[] = [];
  files.push(writePlanAttributes(world, dir));
  const rates = writeRates(world, dir);
  files.push(rates);
  const benefits = writeBenefits(world, dir);
  files.push(benefits);
  files.push(writeServiceAreas(world, dir));
  files.push(writeQuality(world, dir));
  files.push(writeNetworks(world, dir));
  files.push(...writeGeography(world, dir));
  const mr = writeMachineReadable(world, dir);
  for (const f of mr.files) files.push({ file: f.file, rows: f.items, bytes: f.bytes });
  // The year before, in <year-1>/, and the Plan ID Crosswalk from it at the root (decision 341).
  files.push(...writePriorYear(world, dir));

  // The marker tells the loader to label everything from this directory as sample data.
  writeFileSync(join(dir, "SAMPLE-DATA"), "Made-up plans and prices over real county codes and ZIPs. See README.md.\n");
  writeFileSync(join(dir, "README.md"), world.scale === "sample" ? SAMPLE_README : NATIONAL_README);

  const countiesWithPlans = new Set<string>();
  for (const iss of world.issuers) {
    for (const sa of iss.serviceAreas) {
      if (sa.statewide)
        world.counties.filter((c) => c.state === iss.state).forEach((c) => countiesWithPlans.add(c.fips));
      sa.counties.forEach((c) => countiesWithPlans.add(c.county));
    }
  }
  return {
    scale: world.scale,
    outDir: dir,
    files: files.map((f) => ({
      ...f,
      file: f.file.startsWith(dir) ? f.file.slice(dir.length).replace(/^[/\\]/, "") : f.file,
    })),
    counts: {
      states: new Set(world.issuers.map((i) => i.state)).size,
      counties: world.counties.length,
      countiesWithPlans: countiesWithPlans.size,
      zips: new Set(world.hudZips.map((z) => z.zip)).size,
      issuers: world.issuers.length,
      plans: world.plans.length,
      planVariants: world.plans.reduce((s, p) => s + p.variants.length, 0),
      rateRows: rates.rows,
      benefitRows: benefits.rows,
      formularyRows: mr.formularyRows,
      providerNetworkRows: mr.providerNetworkRows,
      providers: mr.providers,
      drugs: world.drugs.length,
    },
  };
}
