/**
 * Building plans: HIOS ids, variants, design knobs, premiums per rating area
 * and quality ratings, shared by the sample and the national generator.
 */
import { drawKnobs } from "./design";
import type { Issuer, Market, Metal, Plan, PlanType, QualityRating } from "./model";
import type { Prng } from "./prng";

export type PlanSpec = {
  metal: Metal;
  type: PlanType;
  name: string;
  networkId: string;
  serviceAreaId: string;
  hsa?: boolean;
  /** Also sold off the exchange (adds the -00 variant). */
  both?: boolean;
  /** American Indian / Alaska Native variants -02 and -03. */
  aian?: boolean;
  isNew?: boolean;
  separateDrugDeductible?: boolean;
  market?: Market;
  dental?: boolean;
  designType?: string;
  /** Fixed rating, "none" for no Quality PUF row; otherwise drawn. */
  quality?: QualityRating | "none";
};

const PRODUCT_BY_TYPE: Record<PlanType, string> = { HMO: "001", PPO: "002", EPO: "003", POS: "004" };

/** Premium relative to silver (thousandths), typical of recent marketplace pricing. */
export const METAL_PRICE_MILLI: Record<Metal, number> = {
  Catastrophic: 620,
  Bronze: 790,
  "Expanded Bronze": 850,
  Silver: 1000,
  Gold: 1030,
  Platinum: 1260,
  Low: 0,
  High: 0,
};

export function variantSuffixes(spec: Pick<PlanSpec, "metal" | "both" | "aian" | "market" | "dental">): string[] {
  const out: string[] = [];
  if (spec.both) out.push("00");
  out.push("01");
  const individualMedical = (spec.market ?? "Individual") === "Individual" && !spec.dental;
  if (individualMedical && spec.aian) out.push("02", "03");
  if (individualMedical && spec.metal === "Silver") out.push("04", "05", "06");
  return out;
}

export function drawQuality(rng: Prng, isNew: boolean): QualityRating | null {
  if (isNew) return { kind: "nr", text: "NR - New-Ineligible for Scoring" };
  const roll = rng.next();
  if (roll < 0.08) return null;
  if (roll < 0.18) return { kind: "nr", text: "NR - Not Rated" };
  const overall = rng.int(2, 5);
  const near = () => Math.max(1, Math.min(5, overall + rng.int(-1, 1)));
  return { kind: "rated", overall, medical: near(), member: near(), admin: near() };
}

/**
 * A plan. `areaCents(area)` gives the plan's base premium in each rating area
 * it is sold in (age 21 for age-rated states, the single-adult rate for NY).
 */
export function makePlan(
  issuer: Issuer,
  spec: PlanSpec,
  seq: number,
  rng: Prng,
  moopLimit: number,
  areas: readonly number[],
  areaCents: (area: number) => number,
): Plan {
  const market = spec.market ?? "Individual";
  const product = spec.dental ? "006" : market !== "Individual" ? "005" : PRODUCT_BY_TYPE[spec.type];
  const id = `${issuer.id}${issuer.state}${product}${String(seq).padStart(4, "0")}`;
  if (!/^[0-9]{5}[A-Z]{2}[0-9]{7}$/.test(id)) throw new Error(`bad standard component id ${id}`);
  const knobs = drawKnobs(spec.metal, rng, moopLimit);
  const ratesByArea = new Map<number, number>();
  for (const area of areas) ratesByArea.set(area, areaCents(area));
  const isNew = spec.isNew ?? false;
  const quality =
    spec.quality === "none"
      ? null
      : (spec.quality ?? (spec.dental || market !== "Individual" ? null : drawQuality(rng, isNew)));
  return {
    id,
    issuer,
    name: spec.name,
    metal: spec.metal,
    type: spec.type,
    networkId: spec.networkId,
    serviceAreaId: spec.serviceAreaId,
    formularyId: `${issuer.state}F00${spec.dental ? 2 : 1}`,
    market,
    dental: spec.dental ?? false,
    hsa: spec.hsa ?? false,
    isNew,
    qhpType: spec.both ? "Both" : "On the Exchange",
    designType: spec.designType ?? "Not Applicable",
    variants: variantSuffixes(spec),
    separateDrugDeductible: spec.separateDrugDeductible ?? false,
    ratesByArea,
    quality,
    knobs: spec.hsa ? { ...knobs, deductible: Math.max(knobs.deductible, 3400) } : knobs,
  };
}
