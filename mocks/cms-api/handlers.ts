/**
 * The fake upstream's answers, endpoint by endpoint, in the shapes the real
 * CMS Marketplace API sends (which differ from its published spec): bare
 * arrays from the autocomplete endpoints, `{coverage: [...]}` from the
 * coverage endpoints, `{counties}`, `{estimates}`, and plan search paged by 10.
 * See docs/reference/upstream-api.md.
 */
import { PROVIDER_TYPE_ORDER } from "../../app/domain/coverage-suggestions";
import type { FakeDataset, FakeDrug, FakePlan, FakeProvider, ProviderKind } from "./dataset";
import {
  type AcaParameters,
  FakeApiError,
  type FakeHousehold,
  type FakePlace,
  acaParameters,
  checkPlace,
  effectiveDate,
  householdEligibility,
  householdPremium,
  personAge,
  plansOffered,
  povertyGuideline,
  ptcGuidelineYear,
  ratingAreaFor,
} from "./rules";

export interface FakeAnswer {
  status: number;
  body: unknown;
}

const ok = (body: unknown): FakeAnswer => ({ status: 200, body });

/** The real API caps coverage look-ups at 10 plan ids per call. */
export const MAX_PLAN_IDS_PER_CALL = 10;
/** Plan search answers 10 plans per page whatever `limit` says. */
export const PLAN_SEARCH_PAGE_SIZE = 10;
/** The real autocomplete answers at most 10 items, ordered by RxCUI, not by how well the name matches. */
export const AUTOCOMPLETE_LIMIT = 10;
/** The real API's words for a plan year it does not serve. */
export const INVALID_MARKET_YEAR = "Invalid market year";

/**
 * What the fake does with a plan in a coverage answer, decided by a hash of the
 * plan id so that every run answers alike: most plans get a real answer, some
 * get `DataNotProvided` (as live for about a quarter of some markets) and some
 * are left out of the answer altogether. Tests use this to pick plan ids.
 */
export function fakeCoverageQuirk(planId: string): "answer" | "data_not_provided" | "omitted" {
  // FNV-1a of a salted id; the salt was picked so the fixture's Dallas plans get every kind of answer.
  const key = `dnp:${planId}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const bucket = h % 100;
  if (bucket < 12) return "data_not_provided";
  if (bucket < 20) return "omitted";
  return "answer";
}

function inYear(years: number[] | null, year: number | null): boolean {
  return year === null || years === null || years.length === 0 || years.includes(year);
}

function splitIds(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A year the fake does not serve answers as the real API does: 400 "Invalid market year". */
function servedYear(ds: FakeDataset, year: number): number {
  if (!ds.years.includes(year)) throw new FakeApiError(400, "1003", INVALID_MARKET_YEAR);
  return year;
}

/** The first marketplace plan year. */
const FIRST_MARKET_YEAR = 2014;

/**
 * The year of a coverage call (drugs/covered, providers/covered). A past year the fake holds no data
 * for is answered DataNotProvided across the board, as live (upstream-api.md §8: "2019 data returns
 * DataNotProvided across the board"); a year after the newest served is refused like everywhere.
 */
function coverageYear(ds: FakeDataset, query: URLSearchParams): number | null {
  const n = Number(query.get("year") ?? "");
  const oldest = Math.min(...ds.years);
  if (query.get("year") && Number.isInteger(n) && n >= FIRST_MARKET_YEAR && n < oldest) return n;
  return queryYear(ds, query);
}

function queryYear(ds: FakeDataset, query: URLSearchParams): number | null {
  const y = query.get("year");
  if (y === null || y === "") return null;
  const n = Number(y);
  if (!Number.isInteger(n)) throw new FakeApiError(400, "1003", INVALID_MARKET_YEAR);
  return servedYear(ds, n);
}

/** GET /market-years: `{current, supported}` (upstream-api.md §11). */
export function marketYears(ds: FakeDataset): FakeAnswer {
  const supported = [...ds.years].sort((a, b) => a - b);
  return ok({ current: supported[supported.length - 1] ?? new Date().getUTCFullYear(), supported });
}

function requireQ(query: URLSearchParams): string {
  const q = (query.get("q") ?? "").trim();
  if (q.length < 3) throw new FakeApiError(400, "1003", "q: the length must be at least 3");
  return q;
}

// ---------------------------------------------------------------- drugs

/** RxNorm-style name pieces: "atorvastatin 20 MG Oral Tablet [Lipitor]". */
export function describeDrug(drug: FakeDrug) {
  const full = drug.drugName.trim();
  const brand = /\[([^\]]+)\]\s*$/.exec(full)?.[1] ?? null;
  const base = full.replace(/\s*\[[^\]]+\]\s*$/, "");
  const strengthMatch =
    /\s(\d[\d.,]*\s*(?:MG|MCG|G|UNT|MEQ|ML|%|MG\/ML|UNT\/ML|MG\/HR)(?:\/(?:ML|ACTUAT|HR))?)(\s|$)/i.exec(base);
  const ingredient = strengthMatch ? base.slice(0, strengthMatch.index).trim() : base;
  const strength = strengthMatch ? strengthMatch[1].toLowerCase() : "";
  const doseForm = strengthMatch ? base.slice(strengthMatch.index + strengthMatch[0].length).trim() : "";
  const form = doseForm.toLowerCase();
  const route = /oral (tablet|capsule)/.test(form)
    ? "Oral Pill"
    : form.startsWith("oral")
      ? "Oral Liquid"
      : /inject/.test(form)
        ? "Injectable"
        : /topical|cream|ointment/.test(form)
          ? "Topical"
          : doseForm;
  const rxtermsDoseForm = /tablet/.test(form)
    ? "Tab"
    : /capsule/.test(form)
      ? "Cap"
      : /solution/.test(form)
        ? "Sol"
        : doseForm;
  return {
    name: brand ?? ingredient,
    strength,
    route,
    full_name: full,
    rxterms_dose_form: rxtermsDoseForm,
    rxnorm_dose_form: doseForm,
  };
}

/**
 * As live: every drug whose name holds the text, the first 10 by RxCUI
 * compared as text. So "metformin" answers combination products (newer,
 * 7-digit RxCUIs such as "1368001" sort before "861007") before, or instead
 * of, plain metformin tablets.
 */
export function drugsAutocomplete(ds: FakeDataset, query: URLSearchParams): FakeAnswer {
  const q = requireQ(query).toLowerCase();
  queryYear(ds, query);
  const matches = [...ds.drugs.values()]
    .filter((drug) => drug.drugName.toLowerCase().includes(q))
    .sort((a, b) => (a.rxcui < b.rxcui ? -1 : a.rxcui > b.rxcui ? 1 : 0))
    .slice(0, AUTOCOMPLETE_LIMIT)
    .map((drug) => ({ drug, d: describeDrug(drug) }));
  return ok(matches.map(({ drug, d }) => ({ rxcui: drug.rxcui, ...d })));
}

/** The generic a brand name names: same text without the [Brand] suffix. */
function genericOf(ds: FakeDataset, drug: FakeDrug): FakeDrug | null {
  if (!/\[[^\]]+\]\s*$/.test(drug.drugName)) return null;
  const base = drug.drugName.replace(/\s*\[[^\]]+\]\s*$/, "").toLowerCase();
  for (const other of ds.drugs.values()) {
    if (other.rxcui !== drug.rxcui && other.drugName.trim().toLowerCase() === base) return other;
  }
  return null;
}

function checkPlanIds(query: URLSearchParams): string[] {
  const planIds = splitIds(query.get("planids"));
  if (planIds.length < 1 || planIds.length > MAX_PLAN_IDS_PER_CALL) {
    throw new FakeApiError(
      400,
      "1003",
      `planids: the number of plan ids must be between 1 and ${MAX_PLAN_IDS_PER_CALL}`,
    );
  }
  return planIds;
}

export function drugsCovered(ds: FakeDataset, query: URLSearchParams): FakeAnswer {
  const rxcuis = splitIds(query.get("drugs"));
  if (rxcuis.length === 0) throw new FakeApiError(400, "1003", "drugs: cannot be blank");
  const planIds = checkPlanIds(query);
  const year = coverageYear(ds, query);
  const pastYear = year !== null && year < Math.min(...ds.years);
  const coverage: Array<Record<string, string>> = [];
  for (const rxcui of rxcuis) {
    const drug = ds.drugs.get(rxcui);
    const generic = drug ? genericOf(ds, drug) : null;
    for (const planId of planIds) {
      // A past year without data: every pair DataNotProvided, the plan quirks aside.
      const quirk = pastYear ? "data_not_provided" : fakeCoverageQuirk(planId);
      if (quirk === "omitted") continue;
      // A plan it has no data for (unknown, or not sold that year) is DataNotProvided, as live.
      if (quirk === "data_not_provided" || !hasPlanData(ds, planId, year)) {
        coverage.push({ rxcui, plan_id: planId, coverage: "DataNotProvided" });
        continue;
      }
      const listed = drug?.plans.get(planId);
      const genericListed = generic?.plans.get(planId);
      if (listed && inYear(listed.years, year)) coverage.push({ rxcui, plan_id: planId, coverage: "Covered" });
      else if (generic && genericListed && inYear(genericListed.years, year)) {
        coverage.push({ rxcui, plan_id: planId, coverage: "GenericCovered", generic_rxcui: generic.rxcui });
      } else coverage.push({ rxcui, plan_id: planId, coverage: "NotCovered" });
    }
  }
  return ok({ coverage });
}

const knownPlansCache = new WeakMap<FakeDataset, Set<string>>();
/** A plan the fake has data for in that year (year null: the plan attributes of any year, or any issuer file). */
function hasPlanData(ds: FakeDataset, planId: string, year: number | null): boolean {
  let known = knownPlansCache.get(ds);
  if (!known) {
    known = new Set(ds.plans.map((p) => `${p.year}|${p.id}`));
    for (const p of ds.plans) known.add(`any|${p.id}`);
    knownPlansCache.set(ds, known);
  }
  return known.has(year === null ? `any|${planId}` : `${year}|${planId}`);
}

// ------------------------------------------------------------ providers

function providerItem(p: FakeProvider) {
  return {
    npi: p.npi,
    name: p.name,
    // The live item names its type `provider_type` only (the spec's `type` is not sent).
    provider_type: p.kind,
    specialties: p.specialties,
    accepting: p.kind === "Individual" ? p.accepting : "unknown",
    gender: p.gender ?? "",
    languages: p.languages,
    facility_types: p.facilityTypes,
    taxonomy: p.specialties[0] ?? p.facilityTypes[0] ?? "",
  };
}

const PROVIDER_TYPES: readonly ProviderKind[] = PROVIDER_TYPE_ORDER;

export function providersAutocomplete(ds: FakeDataset, query: URLSearchParams): FakeAnswer {
  const q = requireQ(query).toLowerCase();
  const zip = query.get("zipcode") ?? "";
  if (!/^\d{5}$/.test(zip)) throw new FakeApiError(400, "1003", "zipcode: must be 5 digits");
  const types = splitIds(query.get("type"));
  if (types.length === 0 || types.some((t) => !PROVIDER_TYPES.includes(t as ProviderKind))) {
    throw new FakeApiError(400, "1003", `type: must be one of ${PROVIDER_TYPES.join(", ")}`);
  }
  const nearness = (p: FakeProvider) =>
    p.addresses.some((a) => a.zip === zip) ? 0 : p.addresses.some((a) => a.zip.slice(0, 3) === zip.slice(0, 3)) ? 1 : 2;
  const matches = ds.providers
    .filter((p) => types.includes(p.kind) && p.name.toLowerCase().includes(q))
    .sort((a, b) => nearness(a) - nearness(b) || a.name.localeCompare(b.name) || a.npi.localeCompare(b.npi))
    .slice(0, AUTOCOMPLETE_LIMIT);
  return ok(matches.map(providerItem));
}

/** Search types the real API takes on /providers/search (Group is asked of autocomplete only). */
const SEARCH_TYPES: ProviderKind[] = ["Individual", "Facility"];

/** Provider search answers this many a page; `offset` pages on, `total` counts all (recorded live answers). */
export const PROVIDER_SEARCH_PAGE_SIZE = 25;

/**
 * Miles from the ZIP asked about to an address: the sample data has no coordinates, so the fake
 * stands in with a figure from the ZIP codes (0 in the same ZIP, more for a farther ZIP; deterministic).
 */
export function fakeMiles(askedZip: string, addressZip: string): number {
  if (askedZip === addressZip) return 0;
  const apart = Math.abs(Number(askedZip) - Number(addressZip));
  return askedZip.slice(0, 3) === addressZip.slice(0, 3)
    ? Math.round(apart) / 10
    : Math.round(250 + apart / 100) / 10 + 25;
}

/**
 * GET /providers/search (spec NearbyProvider `{provider, address, distance}`), as the recorded live
 * answers: 25 a page from `offset`, with `total`; each provider with its address nearest the ZIP and
 * that address's distance in miles; items carry the live field names only (`provider_type`, no
 * `type`). Upstream's order is its own match order (by name here), not nearest first: the service
 * orders by distance. Like a proximity search it is not limited to the ZIP's state; the service narrows it.
 */
export function providersSearch(ds: FakeDataset, query: URLSearchParams): FakeAnswer {
  const q = requireQ(query).toLowerCase();
  const zip = query.get("zipcode") ?? "";
  if (!/^\d{5}$/.test(zip)) throw new FakeApiError(400, "1003", "zipcode: must be 5 digits");
  const type = query.get("type") ?? "";
  if (!SEARCH_TYPES.includes(type as ProviderKind)) {
    throw new FakeApiError(400, "1003", "type: must be one of Individual, Facility");
  }
  const offsetText = query.get("offset") ?? "0";
  const offset = Number(offsetText);
  if (!/^\d{1,6}$/.test(offsetText)) throw new FakeApiError(400, "1003", "offset: must be a whole number");
  const matches = ds.providers
    .filter((p) => p.kind === type && p.name.toLowerCase().includes(q))
    .map((p) => {
      const address = [...p.addresses].sort((a, b) => fakeMiles(zip, a.zip) - fakeMiles(zip, b.zip))[0];
      return { p, address };
    })
    .sort((a, b) => a.p.name.localeCompare(b.p.name) || a.p.npi.localeCompare(b.p.npi));
  return ok({
    providers: matches.slice(offset, offset + PROVIDER_SEARCH_PAGE_SIZE).map(({ p, address }) => ({
      provider: providerItem(p),
      ...(address
        ? {
            address: {
              street_1: address.street1,
              street_2: address.street2,
              city: address.city,
              state: address.state,
              zipcode: address.zip,
              countyfips: ds.zipCounties.get(address.zip)?.[0]?.fips ?? "",
            },
            distance: fakeMiles(zip, address.zip),
          }
        : {}),
    })),
    total: matches.length,
  });
}

export function providersCovered(ds: FakeDataset, query: URLSearchParams): FakeAnswer {
  const npis = splitIds(query.get("providerids"));
  if (npis.length === 0) throw new FakeApiError(400, "1003", "providerids: cannot be blank");
  const planIds = checkPlanIds(query);
  const year = coverageYear(ds, query);
  const pastYear = year !== null && year < Math.min(...ds.years);
  const coverage: unknown[] = [];
  for (const npi of npis) {
    const entries = ds.providers.filter((p) => p.npi === npi);
    for (const planId of planIds) {
      // A past year without data: every pair DataNotProvided, the plan quirks aside.
      const quirk = pastYear ? "data_not_provided" : fakeCoverageQuirk(planId);
      if (quirk === "omitted") continue;
      if (quirk === "data_not_provided" || !hasPlanData(ds, planId, year)) {
        coverage.push({ npi, plan_id: planId, coverage: "DataNotProvided", accepting: "unknown", addresses: [] });
        continue;
      }
      const inNetwork = entries.find((p) => {
        const plan = p.plans.get(planId);
        return plan !== undefined && inYear(plan.years, year);
      });
      if (inNetwork) {
        coverage.push({
          npi,
          plan_id: planId,
          coverage: "Covered",
          accepting: inNetwork.kind === "Individual" ? inNetwork.accepting : "unknown",
          addresses: inNetwork.addresses.map((a) => ({
            street_1: a.street1,
            street_2: a.street2,
            city: a.city,
            state: a.state,
            zipcode: a.zip,
            countyfips: ds.zipCounties.get(a.zip)?.[0]?.fips ?? "",
          })),
        });
      } else {
        coverage.push({ npi, plan_id: planId, coverage: "NotCovered", accepting: "unknown", addresses: [] });
      }
    }
  }
  return ok({ coverage });
}

// -------------------------------------------------------------- counties

export function countiesByZip(ds: FakeDataset, zipOrPrefix: string, query: URLSearchParams): FakeAnswer {
  queryYear(ds, query);
  if (!/^\d{1,5}$/.test(zipOrPrefix)) throw new FakeApiError(400, "1003", "zipcode: must be 1 to 5 digits");
  const zips =
    zipOrPrefix.length === 5
      ? [zipOrPrefix]
      : [...ds.zipCounties.keys()].filter((z) => z.startsWith(zipOrPrefix)).sort();
  const counties = zips.flatMap((zip) =>
    (ds.zipCounties.get(zip) ?? []).map((c) => ({ fips: c.fips, name: c.name, state: c.state, zipcode: zip })),
  );
  return ok({ counties });
}

// ------------------------------------------------------------ eligibility

/**
 * GET /households/pcfpl: income as a percent of the poverty guideline the year's credit uses, two
 * decimals, for a household of any size (16 and more included: the guideline has no top).
 */
export function percentOfPoverty(
  ds: FakeDataset,
  query: URLSearchParams,
  p: AcaParameters = acaParameters(),
): FakeAnswer {
  const year = queryYear(ds, query);
  if (year === null) throw new FakeApiError(400, "1003", "year: cannot be blank.");
  const state = (query.get("state") ?? "").toUpperCase();
  if (!/^[A-Z]{2}$/.test(state)) throw new FakeApiError(400, "1003", "state: cannot be blank.");
  const size = Number(query.get("size"));
  if (!Number.isInteger(size) || size < 1)
    throw new FakeApiError(400, "1003", "size: must be a whole number of at least 1.");
  const income = Number(query.get("income"));
  if (!Number.isFinite(income) || income < 0) throw new FakeApiError(400, "1003", "income: must be a number.");
  const guideline = povertyGuideline(p, ptcGuidelineYear(p, year), state, size);
  return ok({ pc_fpl: Math.floor((Math.round(income * 100) * 100) / guideline) / 100 });
}

interface HouseholdBody {
  household?: FakeHousehold;
  place?: FakePlace;
  year?: number;
  market?: string;
}

function bodyYear(ds: FakeDataset, body: { year?: unknown }, query: URLSearchParams): number {
  if (body.year !== undefined && body.year !== null) {
    if (typeof body.year !== "number" || !Number.isInteger(body.year))
      throw new FakeApiError(400, "1003", INVALID_MARKET_YEAR);
    return servedYear(ds, body.year);
  }
  const q = queryYear(ds, query);
  if (q !== null) return q;
  // "Defaults to the current year": for the fake, the latest year it has data for.
  return ds.years[ds.years.length - 1] ?? new Date().getUTCFullYear();
}

export function eligibilityEstimates(
  ds: FakeDataset,
  body: HouseholdBody,
  query: URLSearchParams,
  p: AcaParameters = acaParameters(),
): FakeAnswer {
  const year = bodyYear(ds, body, query);
  const place = checkPlace(p, body.place, year);
  if (!body.household) throw new FakeApiError(400, "1003", "household: cannot be blank.");
  const result = householdEligibility(ds, p, year, place, body.household);
  // One entry per person, in order: the household's credit on each person in the coverage family,
  // nothing for people with other coverage or on Medicaid/CHIP.
  const estimates = result.people.map((person) => {
    const csrName = person.csr ? `${person.csr}% AV Level Silver Plan CSR` : null;
    return {
      aptc: person.aptc,
      ...(csrName ? { csr: csrName } : {}),
      hardship_exemption: false,
      is_medicaid_chip: person.isMedicaidChip,
      in_coverage_gap: person.inCoverageGap,
    };
  });
  return ok({ estimates });
}

// ------------------------------------------------------------ plan search

interface PlanSearchBody extends HouseholdBody {
  offset?: number;
  sort?: string;
  order?: string;
  aptc_override?: number;
  filter?: {
    metal_levels?: string[];
    metal_level?: string;
    types?: string[];
    type?: string;
    issuers?: string[];
    issuer?: string;
    hsa?: boolean;
    premium?: number;
    deductible?: number;
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function planObject(plan: FakePlan, premium: number | null, credit: number) {
  const metal = plan.metalLevel.replace(/^Expanded Bronze$/i, "Bronze");
  const ehbPremium = premium === null ? 0 : round2(premium * plan.ehbShare);
  const eligibleForCredit = metal !== "Catastrophic";
  const costShare = (type: string, amount: number | null) => ({
    type,
    amount: amount ?? 0,
    csr: "Exchange variant (no CSR)",
    network_tier: "In-Network",
    family_cost: "Individual",
    individual: true,
    family: false,
    display_string: amount === null ? "" : `$${amount}`,
  });
  return {
    id: plan.id,
    name: plan.name,
    premium: premium === null ? 0 : round2(premium),
    premium_w_credit: premium === null ? 0 : round2(Math.max(0, premium - (eligibleForCredit ? credit : 0))),
    ehb_premium: ehbPremium,
    pediatric_ehb_premium: 0,
    aptc_eligible_premium: eligibleForCredit ? ehbPremium : 0,
    metal_level: metal,
    type: plan.planType,
    design_type: /design\s*(\d)/i.test(plan.designType)
      ? `DESIGN${/design\s*(\d)/i.exec(plan.designType)![1]}`
      : "NOT_APPLICABLE",
    is_standardized_plan: /design/i.test(plan.designType),
    state: plan.state,
    market: "Individual",
    insurance_market: "QHP",
    product_division: "HealthCare",
    service_area_id: plan.serviceAreaId,
    max_age_child: 25,
    hsa_eligible: plan.hsaEligible,
    has_national_network: plan.nationalNetwork,
    specialist_referral_required: false,
    guaranteed_rate: false,
    simple_choice: false,
    suppression_state: "Available",
    is_ineligible: false,
    rx_3mo_mail_order: false,
    oopc: -1,
    issuer: {
      id: plan.issuerId,
      name: plan.issuerName,
      state: plan.state,
      individual_url: "",
      toll_free: "",
      tty: "711",
      eligible_dependents: ["Spouse", "Child"],
    },
    deductibles: [costShare("Combined Medical and Drug EHB Deductible", plan.deductible)],
    moops: [costShare("Maximum Out of Pocket for Medical and Drug EHB Benefits (Total)", plan.moop)],
    benefits: [],
    quality_rating: {
      available: false,
      year: plan.year,
      global_rating: 0,
      global_not_rated_reason: "New-Ineligible for Scoring",
    },
    benefits_url: plan.sbcUrl,
    brochure_url: plan.brochureUrl,
    formulary_url: plan.formularyUrl,
    network_url: "",
  };
}

export function searchPlans(
  ds: FakeDataset,
  body: PlanSearchBody,
  query: URLSearchParams,
  p: AcaParameters = acaParameters(),
): FakeAnswer {
  const year = bodyYear(ds, body, query);
  const place = checkPlace(p, body.place, year);
  if (body.market !== undefined && !["Individual", "Any"].includes(body.market)) {
    throw new FakeApiError(400, "1003", "market: must be Individual, SHOP or Any");
  }
  const area = ratingAreaFor(ds, place);
  if (area === null) throw new FakeApiError(404, "1017", "rate area not found");
  const offset = Math.max(0, Math.floor(Number(body.offset ?? 0)) || 0);
  // Without a household CMS prices an undocumented default; the fake uses one adult aged 40.
  const household: FakeHousehold = body.household ?? { income: 0, people: [{ age: 40 }] };
  const onDate = effectiveDate(household, year);
  const ages = household.people.map((person) => personAge(person, onDate));
  let credit = 0;
  if (typeof body.aptc_override === "number") credit = body.aptc_override;
  else if (body.household) credit = householdEligibility(ds, p, year, place, household).aptc;

  const f = body.filter ?? {};
  const metals = f.metal_levels ?? (f.metal_level ? [f.metal_level] : null);
  const types = f.types ?? (f.type ? [f.type] : null);
  const issuers = f.issuers ?? (f.issuer ? [f.issuer] : null);
  let priced = plansOffered(ds, year, place)
    .map((plan) => {
      const premium = householdPremium(ds, plan, area, ages, onDate);
      return premium === null ? null : planObject(plan, premium, credit);
    })
    .filter((plan): plan is ReturnType<typeof planObject> => plan !== null);
  const all = priced;
  if (metals) priced = priced.filter((plan) => metals.includes(plan.metal_level));
  if (types) priced = priced.filter((plan) => types.includes(plan.type));
  if (issuers) priced = priced.filter((plan) => issuers.includes(plan.issuer.name));
  if (f.hsa !== undefined) priced = priced.filter((plan) => plan.hsa_eligible === f.hsa);
  if (typeof f.premium === "number") priced = priced.filter((plan) => plan.premium_w_credit <= f.premium!);
  if (typeof f.deductible === "number") priced = priced.filter((plan) => plan.deductibles[0].amount <= f.deductible!);

  const sortKey = body.sort ?? "premium";
  const value = (plan: ReturnType<typeof planObject>) =>
    sortKey === "deductible"
      ? plan.deductibles[0].amount
      : sortKey === "quality_rating"
        ? plan.quality_rating.global_rating
        : plan.premium_w_credit;
  const direction = body.order === "desc" ? -1 : 1;
  priced.sort((a, b) => direction * (value(a) - value(b)) || a.id.localeCompare(b.id));

  const facet = (name: string, values: string[]) => ({
    name,
    facets: [...new Set(values)].sort().map((v) => ({ value: v, count: values.filter((x) => x === v).length })),
  });
  const premiums = priced.map((plan) => plan.premium_w_credit);
  const deductibles = priced.map((plan) => plan.deductibles[0].amount);
  return ok({
    plans: priced.slice(offset, offset + PLAN_SEARCH_PAGE_SIZE),
    total: priced.length,
    facet_groups: [
      facet(
        "metalLevels",
        all.map((plan) => plan.metal_level),
      ),
      facet(
        "types",
        all.map((plan) => plan.type),
      ),
      facet(
        "issuers",
        all.map((plan) => plan.issuer.name),
      ),
    ],
    rate_area: { state: place.state, area },
    ranges: {
      premiums: { min: premiums.length ? Math.min(...premiums) : 0, max: premiums.length ? Math.max(...premiums) : 0 },
      deductibles: {
        min: deductibles.length ? Math.min(...deductibles) : 0,
        max: deductibles.length ? Math.max(...deductibles) : 0,
      },
    },
  });
}

export function planById(ds: FakeDataset, planId: string, query: URLSearchParams): FakeAnswer {
  const year = queryYear(ds, query);
  const candidates = ds.plans.filter((plan) => plan.id === planId && (year === null || plan.year === year));
  const plan = candidates[candidates.length - 1];
  if (!plan) throw new FakeApiError(404, "1006", "Plan not found");
  return ok({ plan: planObject(plan, null, 0) });
}
