/**
 * The fake upstream's eligibility and pricing, worked from the published
 * rules and the year-keyed parameters in app/domain/parameters/ (one block per file)
 * (read as data through the service's one accessor, parameter()). Deliberately written apart from the service's own
 * eligibility code: the fake stands in for the CMS Marketplace API, so a bug
 * in the service's calculation must not be mirrored here.
 *
 * Rules (see docs/reference/eligibility-rules.md):
 * - PTC/CSR use the prior year's poverty guideline (26 CFR 1.36B-1(h));
 *   Medicaid uses the current one (latest published when the year has none).
 * - FPL fraction for the applicable percentage: floor(100 × income / FPL) / 100;
 *   percentage interpolated in its band and rounded to 0.01% (26 CFR 1.36B-3(g)).
 * - No credit below 100% FPL, nor above 400% in cliff years.
 * - CSR 94 / 87 / 73 for ≥100–150 / >150–200 / >200–250% FPL (45 CFR 155.305(g)).
 * - Medicaid for adults at or below 138% FPL in expansion states; the coverage
 *   gap is a non-expansion state (not WI) below 100% FPL.
 * - Benchmark: second-lowest-cost silver plan offered in the county, priced
 *   for the coverage family in its rating area (three oldest children under
 *   21 only; EHB share only; no tobacco surcharge).
 * - aptc (monthly) = max(0, benchmark − income × pct / 12), left unrounded as
 *   the real API sends it.
 */
import { parameter, parameterKeys } from "../../app/domain/parameters/parameter-file";
import type { FakeDataset, FakePlan } from "./dataset";

export class FakeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The service's parameter file as data, through its one accessor (app/domain/parameter-file.ts,
 * validated at load); the rules below that read it are the fake's own, including which year's
 * figures stand in when a year has none.
 */
export interface AcaParameters {
  parameter: typeof parameter;
  parameterKeys: typeof parameterKeys;
}

export function acaParameters(): AcaParameters {
  return { parameter, parameterKeys };
}

/** The block's year for `year`, or the latest earlier one (e.g. 2027 Medicaid uses 2026 guidelines until 2027's are out). */
function latestAtOrBefore(p: AcaParameters, block: Parameters<typeof parameterKeys>[0], year: number): number | null {
  const keys = p
    .parameterKeys(block)
    .map((k) => Number(k.slice(0, 4)))
    .filter((k) => k <= year);
  return keys.length ? keys[keys.length - 1] : null;
}

export function povertyGuideline(p: AcaParameters, guidelineYear: number, state: string, size: number): number {
  const y = latestAtOrBefore(p, "povertyGuidelines", guidelineYear);
  if (y === null) throw new FakeApiError(400, "1009", "poverty guideline not found");
  const table = p.parameter("povertyGuidelines", y);
  const column = state === "AK" || state === "HI" ? table[state] : table.contiguous;
  return column.base + column.perAdditional * (Math.max(1, size) - 1);
}

export function ptcGuidelineYear(p: AcaParameters, coverageYear: number): number {
  const held = p.parameterKeys("ptcGuidelineYear").includes(String(coverageYear));
  return held ? p.parameter("ptcGuidelineYear", coverageYear) : coverageYear - 1;
}

function applicableYear(p: AcaParameters, year: number) {
  const y = latestAtOrBefore(p, "applicablePercentage", year);
  if (y === null) throw new FakeApiError(404, "1010", "percentage of federal poverty level not found");
  return p.parameter("applicablePercentage", y);
}

/** Applicable percentage at a truncated FPL fraction, or null when no credit is allowed. */
export function applicablePercentage(p: AcaParameters, year: number, fplFraction: number): number | null {
  const table = applicableYear(p, year);
  if (fplFraction < (table.minFplForCredit ?? 1)) return null;
  if (table.cliffAbove400 && table.maxFplForCredit != null && fplFraction > table.maxFplForCredit) return null;
  const bands = table.bands ?? [];
  const last = bands[bands.length - 1];
  for (const band of bands) {
    const top = band.toFpl;
    const inBand =
      fplFraction >= band.fromFpl && (top === null || fplFraction < top || (band === last && fplFraction <= top));
    if (!inBand) continue;
    const share = top === null || top === band.fromFpl ? 0 : (fplFraction - band.fromFpl) / (top - band.fromFpl);
    const pct = band.initial + share * (band.final - band.initial);
    return Math.round(pct * 10000) / 10000;
  }
  return null;
}

export interface FakePerson {
  age?: number;
  dob?: string;
  aptc_eligible?: boolean;
  has_mec?: boolean;
  uses_tobacco?: boolean;
  is_pregnant?: boolean;
  /** Babies expected; counted in her own Medicaid/CHIP household (42 CFR 435.603(b)); default 1. */
  pregnant_with?: number;
}
export interface FakePlace {
  countyfips: string;
  state: string;
  zipcode: string;
}
export interface FakeHousehold {
  income: number;
  people: FakePerson[];
  effective_date?: string;
}

/** HealthCare.gov states of the latest year that lists them (2027 only lists expected changes). */
export function servedStates(p: AcaParameters, year: number): Set<string> {
  const listed = p.parameterKeys("marketplaceType").map(Number);
  const y = listed.filter((k) => k <= year).pop() ?? listed[0];
  return new Set(y === undefined ? [] : p.parameter("marketplaceType", y).healthcareGov);
}

export function checkPlace(p: AcaParameters, place: FakePlace | undefined, year: number): FakePlace {
  if (!place || typeof place !== "object") throw new FakeApiError(400, "1003", "place: cannot be blank.");
  if (!place.countyfips) throw new FakeApiError(400, "1003", "place: (countyfips: cannot be blank.)");
  if (!place.state) throw new FakeApiError(400, "1003", "place: (state: cannot be blank.)");
  if (!servedStates(p, year).has(place.state))
    throw new FakeApiError(400, "1003", "state is not a valid marketplace state");
  return place;
}

export function effectiveDate(household: FakeHousehold | undefined, year: number): string {
  const d = household?.effective_date;
  return d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : `${year}-01-01`;
}

export function personAge(person: FakePerson, onDate: string): number {
  if (typeof person.age === "number" && Number.isFinite(person.age)) return Math.max(0, Math.floor(person.age));
  if (person.dob && /^\d{4}-\d{2}-\d{2}$/.test(person.dob)) {
    const [by, bm, bd] = person.dob.split("-").map(Number);
    const [y, m, d] = onDate.split("-").map(Number);
    return Math.max(0, y - by - (m < bm || (m === bm && d < bd) ? 1 : 0));
  }
  throw new FakeApiError(400, "1003", "household: (people: age or dob is required.)");
}

// ---------------------------------------------------------------- pricing

export function ratingAreaFor(ds: FakeDataset, place: FakePlace): number | null {
  return (
    ds.ratingAreaByCounty.get(place.countyfips) ??
    ds.ratingAreaByZip3.get(`${place.state}|${place.zipcode.slice(0, 3)}`) ??
    null
  );
}

/** Plans of the year whose issuer's service area covers the county (and the ZIP, for partial counties). */
export function plansOffered(ds: FakeDataset, year: number, place: FakePlace): FakePlan[] {
  const areas = new Set<string>();
  for (const sa of ds.serviceAreas) {
    if (sa.year !== year || !sa.individual || sa.state !== place.state) continue;
    const covers =
      sa.wholeState || (sa.county === place.countyfips && (sa.zips === null || sa.zips.has(place.zipcode)));
    if (covers) areas.add(`${sa.issuerId}|${sa.serviceAreaId}`);
  }
  return ds.plans.filter(
    (plan) => plan.year === year && plan.state === place.state && areas.has(`${plan.issuerId}|${plan.serviceAreaId}`),
  );
}

function ageLabel(age: number): string[] {
  if (age <= 14) return ["0-14", "0-20"];
  if (age <= 20) return [String(age), "0-20"];
  if (age >= 64) return ["64 and over"];
  return [String(age)];
}

export function rateFor(ds: FakeDataset, plan: FakePlan, area: number, age: number, onDate: string): number | null {
  const tables = ds.rates.get(`${plan.year}|${plan.id}|${area}`);
  if (!tables) return null;
  const table =
    tables
      .filter((t) => (!t.effective || t.effective <= onDate) && (!t.expiration || t.expiration >= onDate))
      .sort((a, b) => b.effective.localeCompare(a.effective))[0] ?? null;
  if (!table) return null;
  for (const label of ageLabel(age)) {
    const rate = table.byAge.get(label);
    if (rate !== undefined) return rate;
  }
  return null;
}

/** Ages that are charged: under 21s beyond the three oldest add nothing (45 CFR 147.102(c)(1)). */
export function ratedAges(ages: number[]): number[] {
  const adults = ages.filter((a) => a >= 21);
  const children = ages.filter((a) => a < 21).sort((a, b) => b - a);
  return [...adults, ...children.slice(0, 3)];
}

/** Monthly premium for the ages, or null when the plan has no rate for one of them. */
export function householdPremium(
  ds: FakeDataset,
  plan: FakePlan,
  area: number,
  ages: number[],
  onDate: string,
): number | null {
  let total = 0;
  for (const age of ratedAges(ages)) {
    const rate = rateFor(ds, plan, area, age, onDate);
    if (rate === null) return null;
    total += rate;
  }
  return total;
}

function coverageFamilyAges(household: FakeHousehold, onDate: string): number[] {
  return household.people
    .filter((person) => person.aptc_eligible !== false && person.has_mec !== true)
    .map((person) => personAge(person, onDate));
}

/** Second-lowest-cost silver plan premium (EHB share) for the household, monthly. */
export function benchmarkPremium(ds: FakeDataset, year: number, place: FakePlace, household: FakeHousehold): number {
  const area = ratingAreaFor(ds, place);
  if (area === null) throw new FakeApiError(404, "1017", "rate area not found");
  const onDate = effectiveDate(household, year);
  const ages = coverageFamilyAges(household, onDate);
  if (ages.length === 0) return 0;
  const silver = plansOffered(ds, year, place)
    .filter((plan) => plan.metalLevel.toLowerCase() === "silver")
    .map((plan) => {
      const premium = householdPremium(ds, plan, area, ages, onDate);
      // The same cent-rounded EHB premium the plan search shows (planObject's ehb_premium).
      return premium === null ? null : centsOf(premium * plan.ehbShare);
    })
    .filter((premium): premium is number => premium !== null)
    .sort((a, b) => a - b);
  if (silver.length === 0) throw new FakeApiError(404, "1016", "not enough plans to calculate SLCSP/LCBP");
  // One silver plan offered: it is the benchmark (26 CFR 1.36B-3(f)).
  return silver.length === 1 ? silver[0] : silver[1];
}

/** Dollars rounded to cents, as the plan search rounds premiums. */
export function centsOf(dollars: number): number {
  return Math.round(dollars * 100) / 100;
}

/** income ≤ fraction × guideline, compared in whole cents and basis points, not floats (1.38 × 21,640 is 29,863.199…). */
export function atOrBelowLine(income: number, fraction: number, guideline: number): boolean {
  return Math.round(income * 100) * 100 <= Math.round(fraction * 10_000) * guideline;
}

/** income < fraction × guideline, compared the same way. */
export function belowLine(income: number, fraction: number, guideline: number): boolean {
  return Math.round(income * 100) * 100 < Math.round(fraction * 10_000) * guideline;
}

// ------------------------------------------------------------ eligibility

export interface PersonEligibility {
  aptc: number;
  csr: "94" | "87" | "73" | null;
  isMedicaidChip: boolean;
  inCoverageGap: boolean;
}

export interface HouseholdEligibility extends PersonEligibility {
  /** One entry per person, in order. */
  people: PersonEligibility[];
}

const PARTIAL_MEDICAID_LIMIT: Record<string, number> = {
  // medicaid-chip/non-expansion-states.json notes.WI: covers adults to 100% FPL, so no gap.
  WI: 1.0,
};

/** The children's or pregnancy Medicaid/CHIP line the service publishes (read as data, like the parameters). */
function stateLineFor(
  p: AcaParameters,
  state: string,
  year: number,
  kind: "children" | "pregnancy",
): number | undefined {
  const y = latestAtOrBefore(p, "medicaidChipLines", year);
  if (y === null) return undefined;
  return p.parameter("medicaidChipLines", y).states[state]?.[kind].limit;
}

const CHILD_AGE_LIMIT = 19;
const MEDICAID_ADULT_MAX_AGE = 64;

export function householdEligibility(
  ds: FakeDataset,
  p: AcaParameters,
  year: number,
  place: FakePlace,
  household: FakeHousehold,
): HouseholdEligibility {
  const income = Number(household.income);
  if (!Number.isFinite(income) || income < 0)
    throw new FakeApiError(400, "1003", "household: (income: must be a number.)");
  if (!Array.isArray(household.people) || household.people.length === 0) {
    throw new FakeApiError(400, "1003", "household: (people: cannot be blank.)");
  }
  // Households of any size, 16 and more included: the guideline formula has no top.
  const size = household.people.length;
  const ptcFpl = povertyGuideline(p, ptcGuidelineYear(p, year), place.state, size);
  const medicaidFpl = povertyGuideline(p, year, place.state, size);
  const onDate = effectiveDate(household, year);

  const nonExpansionKey = latestAtOrBefore(p, "medicaidNonExpansionStates", year);
  const nonExpansion = new Set<string>(
    nonExpansionKey ? p.parameter("medicaidNonExpansionStates", nonExpansionKey).states : [],
  );
  const adultLimit = nonExpansion.has(place.state)
    ? PARTIAL_MEDICAID_LIMIT[place.state]
    : p.parameter("medicaidExpansionThreshold");
  // WI's partial limit is "below 100%"; the expansion line is "at or below 138%".
  const adultMedicaid =
    adultLimit === undefined
      ? false
      : nonExpansion.has(place.state)
        ? belowLine(income, adultLimit, medicaidFpl)
        : atOrBelowLine(income, adultLimit, medicaidFpl);
  const childLimit = stateLineFor(p, place.state, year, "children");
  const childMedicaid = childLimit === undefined ? adultMedicaid : atOrBelowLine(income, childLimit, medicaidFpl);
  const gapState = nonExpansion.has(place.state) && PARTIAL_MEDICAID_LIMIT[place.state] === undefined;
  // A pregnant person: her own household counts the babies she expects; the pregnancy line, the
  // children's line (under 19) and the adult rule (19-64) are each measured on that larger household.
  const pregnantMedicaid = (person: FakePerson, age: number): boolean => {
    const babies = Number.isInteger(person.pregnant_with) && person.pregnant_with! > 0 ? person.pregnant_with! : 1;
    const fpl = povertyGuideline(p, year, place.state, size + babies);
    const line = stateLineFor(p, place.state, year, "pregnancy");
    if (line !== undefined && atOrBelowLine(income, line, fpl)) return true;
    if (age < CHILD_AGE_LIMIT && childLimit !== undefined && atOrBelowLine(income, childLimit, fpl)) return true;
    if (adultLimit === undefined || age > MEDICAID_ADULT_MAX_AGE) return false;
    return nonExpansion.has(place.state) ? belowLine(income, adultLimit, fpl) : atOrBelowLine(income, adultLimit, fpl);
  };
  const belowFloor = belowLine(income, 1, ptcFpl);

  // Person by person: who is Medicaid/CHIP-eligible, and who is in the coverage family.
  const people = household.people.map((person) => {
    const age = personAge(person, onDate);
    const covered = person.aptc_eligible !== false && person.has_mec !== true;
    const medicaid =
      person.has_mec !== true &&
      ((age < CHILD_AGE_LIMIT ? childMedicaid : age <= MEDICAID_ADULT_MAX_AGE && adultMedicaid) ||
        (person.is_pregnant === true && pregnantMedicaid(person, age)));
    const gap = !medicaid && gapState && belowFloor && age >= CHILD_AGE_LIMIT && age <= MEDICAID_ADULT_MAX_AGE;
    return { covered, medicaid, gap };
  });
  const family = people.filter((x) => x.covered && !x.medicaid);
  const isMedicaidChip = people.some((x) => x.medicaid);
  const inCoverageGap = people.some((x) => x.gap);

  const fplFraction = Math.floor(Math.round(income * 100) / ptcFpl) / 100;
  // The 100% floor and the 400% cliff are tested in dollars (the truncated fraction would let $1 over 400% through).
  const table = applicableYear(p, year);
  const overCliff = Boolean(
    table.cliffAbove400 && table.maxFplForCredit != null && !atOrBelowLine(income, table.maxFplForCredit, ptcFpl),
  );
  const pct = family.length === 0 || belowFloor || overCliff ? null : applicablePercentage(p, year, fplFraction);
  const none = (x: { medicaid: boolean; gap: boolean }): PersonEligibility => ({
    aptc: 0,
    csr: null,
    isMedicaidChip: x.medicaid,
    inCoverageGap: x.gap,
  });
  if (pct === null) return { aptc: 0, csr: null, isMedicaidChip, inCoverageGap, people: people.map(none) };

  const benchmark = benchmarkPremium(ds, year, place, {
    ...household,
    // Medicaid/CHIP-eligible people are not in the coverage family either.
    people: household.people.filter((_, i) => people[i].covered && !people[i].medicaid),
  });
  const aptc = Math.max(0, benchmark - (income * pct) / 12);

  let csr: HouseholdEligibility["csr"] = null;
  for (const band of p.parameter("csrBands")) {
    const above =
      band.fplAtLeast !== undefined
        ? !belowLine(income, band.fplAtLeast, ptcFpl)
        : band.fplAbove !== undefined && !atOrBelowLine(income, band.fplAbove, ptcFpl);
    if (above && atOrBelowLine(income, band.fplAtMost, ptcFpl)) {
      csr = band.variant as HouseholdEligibility["csr"];
      break;
    }
  }
  return {
    aptc,
    csr,
    isMedicaidChip,
    inCoverageGap,
    people: people.map((x) =>
      x.covered && !x.medicaid ? { aptc, csr, isMedicaidChip: false, inCoverageGap: x.gap } : none(x),
    ),
  };
}
