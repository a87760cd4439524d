import {
  mergeDrugCoverage,
  mergeProviderCoverage,
  type DrugCoverageResult,
  type ProviderCoverageResult,
} from "../../domain/coverage";
import { planStore } from "../plan-store/plan-store.server";
import { logger } from "../platform/logger.server";
import { DEFAULT_FILLS_PER_YEAR, DEFAULT_VISITS, doctorKindOf } from "../../domain/yearly-cost/assumptions";
import type { MyDoctor, MyDrug, MyYearlyCost } from "../../domain/yearly-cost/my-year";
import { rankingContext, rankingOf, type RankFacts, type Reason } from "../../domain/yearly-cost/ranking";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import type { PlansRequest } from "../../schemas/shopping";
import { checkDrugCoverage, checkProviderCoverage, type UpstreamState } from "../upstream/lookups.server";
import { MAX_PLAN_IDS_PER_REQUEST } from "../upstream/requests.server";

/**
 * "Your year" for a plan list (docs/yearly-cost.md; decisions 330-334): the chosen drugs' and
 * doctors' coverage for every plan of the list, through the same look-ups the pages use (upstream
 * first in batches of 10 plan ids, kept a day per pair, the plan store's rows filling tiers and
 * unknowns; the call budget decides), made into each plan's inputs of the cost model; and the
 * ranking words.
 */

/** The chosen care of a plans request, with the defaults filled in. */
export interface ChosenCare {
  drugs: Array<{ rxcui: string; fillsPerYear: number }>;
  doctors: Array<{ npi: string; visitsPerYear: number | null; specialty: string | null }>;
}

export function chosenCareOf(request: Pick<PlansRequest, "drugs" | "doctors">): ChosenCare {
  return {
    drugs: (request.drugs ?? []).map((d) => ({
      rxcui: d.rxcui,
      fillsPerYear: d.fills_per_year ?? DEFAULT_FILLS_PER_YEAR,
    })),
    doctors: (request.doctors ?? []).map((d) => ({
      npi: d.npi,
      visitsPerYear: d.visits_per_year ?? null,
      specialty: d.specialty ?? null,
    })),
  };
}

/** Each plan's chosen drugs and doctors as the cost model reads them. */
export interface CareCoverage {
  drugsOf(planId: string): MyDrug[];
  doctorsOf(planId: string): MyDoctor[];
  /** How the look-ups went: "ok", "partial" (some batches failed), "unavailable" or "busy" (everything unknown). */
  upstream: { drugs: UpstreamState | null; doctors: UpstreamState | null };
}

const NO_CARE: CareCoverage = { drugsOf: () => [], doctorsOf: () => [], upstream: { drugs: null, doctors: null } };

/** The tier most plans of the list give each drug (the price of a fill where a plan's own tier is not known). */
function usualTiers(rows: readonly DrugCoverageResult[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (!row.drug_tier || row.coverage === "GenericCovered") continue;
    const byTier = counts.get(row.rxcui) ?? new Map<string, number>();
    byTier.set(row.drug_tier, (byTier.get(row.drug_tier) ?? 0) + 1);
    counts.set(row.rxcui, byTier);
  }
  const usual = new Map<string, string>();
  for (const [rxcui, byTier] of counts) {
    const [tier] = [...byTier].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    usual.set(rxcui, tier);
  }
  return usual;
}

/** Coverage of the chosen care for `planIds` (at most MAX_PLAN_IDS_PER_REQUEST); none asked when nothing is chosen. */
export async function careCoverage(care: ChosenCare, planIds: readonly string[], year: number): Promise<CareCoverage> {
  if (care.drugs.length === 0 && care.doctors.length === 0) return NO_CARE;
  const ids = [...planIds].slice(0, MAX_PLAN_IDS_PER_REQUEST);
  const [drugAnswer, doctorAnswer] = await Promise.all([
    care.drugs.length && ids.length
      ? checkDrugCoverage({ rxcuis: care.drugs.map((d) => d.rxcui), plan_ids: ids, year })
      : null,
    care.doctors.length && ids.length
      ? checkProviderCoverage({ npis: care.doctors.map((d) => d.npi), plan_ids: ids, year })
      : null,
  ]);
  const drugCoverage = upstreamAnswered(drugAnswer?.upstream)
    ? (drugAnswer?.coverage ?? [])
    : ownDrugRows(care, ids, year);
  const doctorCoverage = upstreamAnswered(doctorAnswer?.upstream)
    ? (doctorAnswer?.coverage ?? [])
    : ownDoctorRows(care, ids, year);
  const drugRows = new Map<string, DrugCoverageResult>();
  for (const row of drugCoverage) drugRows.set(`${row.rxcui}|${row.plan_id}`, row);
  const doctorRows = new Map<string, ProviderCoverageResult>();
  for (const row of doctorCoverage) doctorRows.set(`${row.npi}|${row.plan_id}`, row);
  const usual = usualTiers(drugCoverage);
  return {
    drugsOf: (planId) =>
      care.drugs.map((d): MyDrug => {
        const row = drugRows.get(`${d.rxcui}|${planId}`);
        return {
          rxcui: d.rxcui,
          fillsPerYear: d.fillsPerYear,
          coverage: row?.coverage ?? "DataNotProvided",
          tier: row?.drug_tier ?? null,
          usualTier: usual.get(d.rxcui) ?? null,
          priorAuthorization: row?.restrictions?.prior_authorization === true,
          stepTherapy: row?.restrictions?.step_therapy === true,
          quantityLimit: row?.restrictions?.quantity_limit === true,
        };
      }),
    doctorsOf: (planId) =>
      care.doctors.map((d): MyDoctor => {
        const kind = doctorKindOf(d.specialty ? [d.specialty] : []);
        return {
          npi: d.npi,
          kind,
          visitsPerYear: d.visitsPerYear ?? DEFAULT_VISITS[kind],
          coverage: doctorRows.get(`${d.npi}|${planId}`)?.coverage ?? "DataNotProvided",
        };
      }),
    upstream: { drugs: drugAnswer?.upstream ?? null, doctors: doctorAnswer?.upstream ?? null },
  };
}

/** Whether the look-up got an answer (some batches may have failed: those plans are unknown). */
const upstreamAnswered = (state: UpstreamState | undefined) =>
  state === undefined || state === "ok" || state === "partial";

/**
 * Upstream unavailable or over budget: the plan store's own rows answer alone, as they do for a
 * pair upstream leaves unknown (decision 041): a listed pair is covered at its tier, the rest unknown.
 */
function ownDrugRows(care: ChosenCare, planIds: string[], year: number): DrugCoverageResult[] {
  const rxcuis = care.drugs.map((d) => d.rxcui);
  try {
    const own = planStore().formularyRows({ year, rxcuis, planIds });
    return mergeDrugCoverage({ rxcuis, planIds, upstream: [], own });
  } catch (error) {
    logger().warn(
      { event: "own_coverage_rows_failed", what: "formulary", error: String(error) },
      "own rows unavailable",
    );
    return [];
  }
}

function ownDoctorRows(care: ChosenCare, planIds: string[], year: number): ProviderCoverageResult[] {
  const npis = care.doctors.map((d) => d.npi);
  try {
    const own = planStore().networkRows({ year, npis, planIds });
    return mergeProviderCoverage({ npis, planIds, upstream: [], own });
  } catch (error) {
    logger().warn({ event: "own_coverage_rows_failed", what: "network", error: String(error) }, "own rows unavailable");
    return [];
  }
}

// ------------------------------------------------------------------ ranking

/** A plan's facts for the ranking, from its yearly cost. */
export function rankFactsOf(
  plan: { id: string; name: string; metal_level: string; csr_variant: string | null },
  year: Pick<MyYearlyCost, "typical" | "bad_year"> & {
    parts: {
      drugs: ReadonlyArray<Pick<MyYearlyCost["parts"]["drugs"][number], "rxcui" | "coverage">>;
      doctors: ReadonlyArray<Pick<MyYearlyCost["parts"]["doctors"][number], "npi" | "in_network">>;
    };
  },
): RankFacts {
  return {
    id: plan.id,
    name: plan.name,
    metalLevel: plan.metal_level,
    csr: plan.csr_variant !== null,
    typical: year.typical,
    badYear: year.bad_year,
    drugs: year.parts.drugs.map((d) => ({
      rxcui: d.rxcui,
      covered: d.coverage === "DataNotProvided" ? null : d.coverage !== "NotCovered",
    })),
    doctors: year.parts.doctors.map((d) => ({ npi: d.npi, inNetwork: d.in_network })),
  };
}

const NO_DRUGS: RankFacts["drugs"] = Object.freeze([]);
const NO_DOCTORS: RankFacts["doctors"] = Object.freeze([]);

/** A plan's facts for the ranking when no drugs or doctors are chosen: its "your year" totals alone. */
export function rankFactsOfTotals(
  id: string,
  name: string,
  metalLevel: string,
  csr: boolean,
  typical: number,
  badYear: number,
): RankFacts {
  return {
    id,
    name,
    metalLevel,
    csr,
    typical,
    badYear,
    drugs: NO_DRUGS,
    doctors: NO_DOCTORS,
  };
}

/** The plans API's `ranking`: the position and each reason in plain words (English unless asked). */
export interface RankingAnswer {
  position: number;
  reasons: string[];
  changes: string[];
  warnings: string[];
}

/**
 * Whole dollars as `toLocaleString("en-US")` writes them ("$1,234"), without Intl on every reason
 * (a list words ~150 of them); anything but a plain safe integer is left to Intl.
 */
export function money(n: number): string {
  const whole = Math.round(n);
  if (!Number.isSafeInteger(whole) || Object.is(whole, -0)) return `$${whole.toLocaleString("en-US")}`;
  const digits = String(Math.abs(whole));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return whole < 0 ? `$-${grouped}` : `$${grouped}`;
}

/** A reason in the words of `lang`'s catalogue (`ranking.<code>`), amounts as whole dollars. */
export function reasonWords(reason: Reason, lang: Language = DEFAULT_LANGUAGE): string {
  const given = reason.values;
  const count = given.count ?? given.total;
  const parts = reasonTemplate(lang, reason.code, given, count);
  if (!parts) {
    const values: Record<string, string | number> = { ...given, count };
    if (typeof given.amount === "number") values.amount = money(given.amount);
    return tFor(lang)(`ranking.${reason.code}`, values);
  }
  let words = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i];
    const value = name === "count" ? count : given[name];
    words += (name === "amount" && typeof value === "number" ? money(value) : String(value)) + parts[i + 1];
  }
  return words;
}

/**
 * A reason's sentence as parts, made once per language, code, count and value names: the
 * catalogue's words with each value's place marked (the count, which picks the plural, in place),
 * split at the marks into [text, name, text, name, …, text]. A list words ~150 reasons; each is then
 * a few string joins instead of a catalogue walk and a RegExp replace. Undefined when a value holds
 * the mark itself (then the catalogue is asked directly).
 */
const MARK = "\u0000";
const reasonTemplates = new Map<string, string[]>();
const REASON_TEMPLATE_ENTRIES = 4_096;

function reasonTemplate(
  lang: Language,
  code: Reason["code"],
  given: Reason["values"],
  count: string | number | undefined,
): string[] | undefined {
  let key = `${lang}|${code}|${String(count)}`;
  for (const name in given) {
    const value = given[name];
    if (typeof value === "string" && value.includes(MARK)) return undefined;
    key += `|${name}`;
  }
  const known = reasonTemplates.get(key);
  if (known) return known;
  // A value that is not there stays unmarked: the catalogue's {{name}} is left as it is, as before.
  const marked: Record<string, string | number | undefined> = { count };
  for (const name in given) {
    if (name !== "count" && given[name] !== undefined && given[name] !== null) marked[name] = `${MARK}${name}${MARK}`;
  }
  const parts = tFor(lang)(`ranking.${code}`, marked).split(MARK);
  if (reasonTemplates.size < REASON_TEMPLATE_ENTRIES) reasonTemplates.set(key, parts);
  return parts;
}

/** Rankings of the plans shown, from the whole list's facts. */
export function rankingsFor(
  all: readonly RankFacts[],
  shown: ReadonlyArray<{ facts: RankFacts; position: number }>,
  lang: Language = DEFAULT_LANGUAGE,
): RankingAnswer[] {
  const ctx = rankingContext(all);
  return shown.map(({ facts, position }) => {
    const r = rankingOf(ctx, facts, position);
    const words = (list: Reason[]) => list.map((reason) => reasonWords(reason, lang));
    return { position, reasons: words(r.reasons), changes: words(r.changes), warnings: words(r.warnings) };
  });
}
