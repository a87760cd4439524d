/**
 * Drug and provider coverage per (code, plan): the upstream answer merged with
 * the service's own formulary and provider-network rows.
 *
 * Rules (docs/reference/spec-decisions.md decisions 7 and 8; the specification's
 * Endpoints rules 2 and 3):
 * - Upstream is primary. It sends no tiers and no PartialCovered, so a
 *   Covered / GenericCovered answer takes its tier from the own rows.
 * - PartialCovered is the service's own value: a drug covered only with prior
 *   authorization, step therapy or a quantity limit (own formulary rows), or a
 *   provider upstream calls Covered but "accepting in some locations".
 * - DataNotProvided, a value outside the documented enum, a plan missing from
 *   the answer and a plan whose upstream batch failed all mean "unknown":
 *   never NotCovered. The own rows then answer if they list the pair
 *   (source "own_data"); otherwise the result is DataNotProvided (source "none").
 *   See docs/decisions/041-coverage-unknown-falls-back-to-own-rows.md.
 *
 * Pure: no I/O. Results come in request order (codes, then plan ids).
 */

export type CoverageValue = "Covered" | "NotCovered" | "PartialCovered" | "GenericCovered" | "DataNotProvided";
export type CoverageSource = "upstream" | "own_data" | "none";

/** The upstream coverage API takes at most 10 plan ids per call. */
export const MAX_PLAN_IDS_PER_UPSTREAM_CALL = 10;

/** Distinct plan ids in request order, cut into batches of at most `size`. */
export function batchPlanIds(planIds: readonly string[], size = MAX_PLAN_IDS_PER_UPSTREAM_CALL): string[][] {
  const unique = [...new Set(planIds)];
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += size) batches.push(unique.slice(i, i + size));
  return batches;
}

/** Upstream's answer for one pair, as parsed from `{coverage: [...]}`. */
export interface UpstreamDrugAnswer {
  rxcui: string;
  plan_id: string;
  coverage: string;
  generic_rxcui?: string | null;
}
export interface UpstreamProviderAnswer {
  npi: string;
  plan_id: string;
  coverage: string;
  accepting?: string | null;
}

/** Own formulary row (from issuers' drugs.json, via the plan store). */
export interface FormularyRow {
  rxcui: string;
  planId: string;
  drugTier: string | null;
  priorAuth?: unknown;
  stepTherapy?: unknown;
  quantityLimit?: unknown;
}
/** Own provider-network row (from issuers' providers.json, via the plan store). */
export interface NetworkRow {
  npi: string;
  planId: string;
  networkTier: string | null;
}

export interface DrugRestrictions {
  prior_authorization: boolean;
  step_therapy: boolean;
  quantity_limit: boolean;
}

export interface DrugCoverageResult {
  rxcui: string;
  plan_id: string;
  coverage: CoverageValue;
  drug_tier: string | null;
  /** Only with GenericCovered: the generic the plan covers instead. */
  generic_rxcui?: string;
  /** Own formulary restrictions for the covered drug, when any applies. */
  restrictions?: DrugRestrictions;
  source: CoverageSource;
}

export interface ProviderCoverageResult {
  npi: string;
  plan_id: string;
  coverage: CoverageValue;
  network_tier: string | null;
  /** Upstream's `accepting` for the plan, when it answered. */
  accepting?: string;
  source: CoverageSource;
}

/** Flag texts that mean "no" (compared lower-cased and trimmed). */
const FLAG_OFF = new Set(["", "false", "no", "n", "0", "none", "not applicable"]);
/** Flag texts already seen, by their text as stored: a formulary repeats a handful of values. */
const flagTexts = new Map<string, boolean>();

/** A flag from the own rows: booleans, 0/1, "Yes"/"No", or a limit's text. */
export function isFlagSet(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") {
    let set = flagTexts.get(value);
    if (set === undefined) {
      set = !FLAG_OFF.has(value.trim().toLowerCase());
      if (flagTexts.size < 1_000) flagTexts.set(value, set);
    }
    return set;
  }
  return false;
}

/** A covered drug with the tier and restrictions the own formulary row lists: PartialCovered when it lists any. */
function coveredAsListed(
  rxcui: string,
  planId: string,
  row: FormularyRow | undefined,
  source: "upstream" | "own_data",
): DrugCoverageResult {
  const restrictions = restrictionsOf(row);
  const drug_tier = row?.drugTier ?? null;
  return restrictions
    ? { rxcui, plan_id: planId, coverage: "PartialCovered", drug_tier, restrictions, source }
    : { rxcui, plan_id: planId, coverage: "Covered", drug_tier, source };
}

function restrictionsOf(row: FormularyRow | undefined): DrugRestrictions | undefined {
  if (!row) return undefined;
  const prior = isFlagSet(row.priorAuth);
  const step = isFlagSet(row.stepTherapy);
  const quantity = isFlagSet(row.quantityLimit);
  return prior || step || quantity
    ? { prior_authorization: prior, step_therapy: step, quantity_limit: quantity }
    : undefined;
}

const pairKey = (code: string, planId: string) => `${code}|${planId}`;

function firstByPair<T>(rows: readonly T[], code: (row: T) => string, plan: (row: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const row of rows) {
    const key = pairKey(code(row), plan(row));
    if (!map.has(key)) map.set(key, row);
  }
  return map;
}

/** The first row of each (code, plan) pair, as code → plan → row: no pair strings built (issue 30 item 6). */
function firstByCodeAndPlan<T>(
  rows: readonly T[],
  code: (row: T) => string,
  plan: (row: T) => string,
): Map<string, Map<string, T>> {
  const map = new Map<string, Map<string, T>>();
  for (const row of rows) {
    const c = code(row);
    let byPlan = map.get(c);
    if (!byPlan) map.set(c, (byPlan = new Map<string, T>()));
    const p = plan(row);
    if (!byPlan.has(p)) byPlan.set(p, row);
  }
  return map;
}

export interface DrugMergeInput {
  rxcuis: readonly string[];
  planIds: readonly string[];
  upstream: readonly UpstreamDrugAnswer[];
  own: readonly FormularyRow[];
}

const NO_ROWS = new Map<string, never>();

/**
 * One result per (rxcui, plan id), drugs in the order asked, plans in the order asked. Written
 * for 10,000 pairs at a time (the API's caps): nested maps instead of pair strings, each result
 * built as one object literal (the fields in the documented order).
 */
export function mergeDrugCoverage({ rxcuis, planIds, upstream, own }: DrugMergeInput): DrugCoverageResult[] {
  const answers = firstByCodeAndPlan(
    upstream,
    (r) => r.rxcui,
    (r) => r.plan_id,
  );
  const ownRows = firstByCodeAndPlan(
    own,
    (r) => r.rxcui,
    (r) => r.planId,
  );
  const plans = [...new Set(planIds)];
  const results: DrugCoverageResult[] = [];
  for (const rxcui of new Set(rxcuis)) {
    const answersFor = answers.get(rxcui) ?? NO_ROWS;
    const ownFor = ownRows.get(rxcui) ?? NO_ROWS;
    for (const planId of plans) {
      const answer = answersFor.get(planId);
      const ownRow = ownFor.get(planId);
      switch (answer?.coverage) {
        case "Covered": {
          results.push(coveredAsListed(rxcui, planId, ownRow, "upstream"));
          break;
        }
        case "GenericCovered": {
          // The tier and restrictions that apply are the generic's, if the own rows list it.
          const generic = answer.generic_rxcui ?? undefined;
          const genericRow = generic ? ownRows.get(generic)?.get(planId) : undefined;
          const row = genericRow ?? ownRow;
          const restrictions = restrictionsOf(row);
          results.push({
            rxcui,
            plan_id: planId,
            coverage: "GenericCovered",
            drug_tier: row?.drugTier ?? null,
            ...(generic ? { generic_rxcui: generic } : {}),
            ...(restrictions ? { restrictions } : {}),
            source: "upstream",
          });
          break;
        }
        case "NotCovered":
          results.push({ rxcui, plan_id: planId, coverage: "NotCovered", drug_tier: null, source: "upstream" });
          break;
        default: {
          // Unknown upstream (DataNotProvided, an undocumented value, no row, failed batch).
          if (ownRow) {
            results.push(coveredAsListed(rxcui, planId, ownRow, "own_data"));
          } else {
            results.push({ rxcui, plan_id: planId, coverage: "DataNotProvided", drug_tier: null, source: "none" });
          }
        }
      }
    }
  }
  return results;
}

/**
 * One tier for a provider listed under several in one plan: the first that is
 * not a "non-preferred" tier, in alphabetical order, so the answer is stable.
 */
export function pickNetworkTier(tiers: readonly (string | null)[]): string | null {
  const named = [...new Set(tiers.filter((t): t is string => Boolean(t && t.trim())))].sort();
  return named.find((t) => !/^non[-_ ]/i.test(t)) ?? named[0] ?? null;
}

export interface ProviderMergeInput {
  npis: readonly string[];
  planIds: readonly string[];
  upstream: readonly UpstreamProviderAnswer[];
  own: readonly NetworkRow[];
}

export const ACCEPTING_IN_SOME_LOCATIONS = "accepting in some locations";

export function mergeProviderCoverage({ npis, planIds, upstream, own }: ProviderMergeInput): ProviderCoverageResult[] {
  const answers = firstByPair(
    upstream,
    (r) => r.npi,
    (r) => r.plan_id,
  );
  const tiers = new Map<string, Array<string | null>>();
  for (const row of own) {
    const key = pairKey(row.npi, row.planId);
    const list = tiers.get(key) ?? [];
    list.push(row.networkTier);
    tiers.set(key, list);
  }
  const results: ProviderCoverageResult[] = [];
  for (const npi of new Set(npis)) {
    for (const planId of new Set(planIds)) {
      const key = pairKey(npi, planId);
      const answer = answers.get(key);
      const ownTiers = tiers.get(key);
      const base = { npi, plan_id: planId };
      const accepting = answer?.accepting ? { accepting: answer.accepting } : {};
      if (answer?.coverage === "Covered" || answer?.coverage === "GenericCovered") {
        const partial = answer.accepting?.trim().toLowerCase() === ACCEPTING_IN_SOME_LOCATIONS;
        results.push({
          ...base,
          coverage: partial ? "PartialCovered" : "Covered",
          network_tier: ownTiers ? pickNetworkTier(ownTiers) : null,
          ...accepting,
          source: "upstream",
        });
      } else if (answer?.coverage === "NotCovered") {
        results.push({ ...base, coverage: "NotCovered", network_tier: null, ...accepting, source: "upstream" });
      } else if (ownTiers) {
        results.push({
          ...base,
          coverage: "Covered",
          network_tier: pickNetworkTier(ownTiers),
          ...accepting,
          source: "own_data",
        });
      } else {
        results.push({ ...base, coverage: "DataNotProvided", network_tier: null, ...accepting, source: "none" });
      }
    }
  }
  return results;
}
