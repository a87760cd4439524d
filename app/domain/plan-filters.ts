// The plan list's filters, each described once (docs/decisions/140-one-descriptor-of-the-plan-filters.md).
//
// A filter is one entry of PLAN_FILTERS: its field in POST /api/plans `filters`, its key in the
// /plans URL, its field in the URL's shopping state, the words the filter form shows, and the rule
// that says which plans it keeps. Everything else is derived from this list by the filter's kind:
//   - the API schema (app/schemas/shopping.ts, PlanFilters),
//   - the URL codec and "Clear filters" (app/lib/shopping-url.ts),
//   - the URL's values checked into API values (app/server/shopping/shopping-url.server.ts),
//   - the filter form (app/components/plans/filters-form.tsx),
//   - the predicate a plan list applies (passesFilters, below).
// A new filter of an existing kind is a new entry here (and its documentation in docs/api.md).

/** What a filter may read of a priced plan (the plan list builds this for each plan when a filter is set). */
export interface FilterFields {
  metal_level: string;
  type: string | null;
  issuer: { id: string; name: string };
  hsa_eligible: boolean;
  /** A standardized plan design (PUF DesignType "Design 1"…; HealthCare.gov's "Easy Pricing"). */
  standardized: boolean;
  premium_w_credit: number;
  deductible: { individual: number | null };
  quality_rating: number | null;
}

/** What the filter form offers for the choices filters: the values some plan sold at the place has. */
export interface FilterOptions {
  metals: string[];
  types: string[];
  issuers: Array<{ id: string; name: string }>;
}

interface FilterBase {
  /** The field of POST /api/plans `filters`. */
  field: string;
  /** The query parameter of the /plans URL. */
  urlKey: string;
  /** The field of the URL's shopping state (ShoppingState). */
  stateField: string;
  /*
   * No words here (issue 28 item 9): the catalogues (app/i18n/locales) hold them under the filter's
   * `field`: filters.label.<field> (a fieldset's legend or an input's label) and filters.noun.<field>
   * (the filter in a sentence: `We ignored … maximum premium "lots"`).
   */
}

/** Plans whose value is one of those chosen (tick boxes; repeated URL key; an array in the API). */
export interface ChoicesFilter extends FilterBase {
  kind: "choices";
  /** The values the API accepts (an enum); absent: any text up to `maxLength`. */
  values?: readonly string[];
  maxLength?: number;
  /** A URL value the page accepts when there is no `values` list (others are ignored and named). */
  urlPattern?: RegExp;
  maxItems: number;
  /** The filter form's option list (what the plans sold there offer) and the least options worth a fieldset. */
  options: keyof FilterOptions;
  minOptions: number;
  /** The catalogue key of each value's words in the form (filters.option.*), where they say more than the value. */
  optionKeys?: Readonly<Record<string, string>>;
  description?: string;
  keeps(plan: FilterFields, chosen: readonly string[]): boolean;
}

/** Plans with a yes/no property when the person asks for it (a tick box; `1` in the URL; a boolean in the API). */
export interface FlagFilter extends FilterBase {
  kind: "flag";
  /** The form's fieldset for it, shared with the other flag and amount filters of the group: filters.group.<group>. */
  group: string;
  description?: string;
  keeps(plan: FilterFields, wanted: boolean): boolean;
}

/** Plans on the right side of an amount the person types (a text box; a number in the API). */
export interface AmountFilter extends FilterBase {
  kind: "amount";
  group: string;
  /** The amounts the API accepts. */
  min: number;
  max: number;
  description?: string;
  keeps(plan: FilterFields, amount: number): boolean;
}

export type PlanFilter = ChoicesFilter | FlagFilter | AmountFilter;

/** Every filter of the plan list, in the order of the URL, the API and the form. */
export const PLAN_FILTERS = [
  {
    kind: "choices",
    field: "metal_levels",
    urlKey: "metal",
    stateField: "metal",
    values: ["Catastrophic", "Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum"],
    maxItems: 6,
    options: "metals",
    minOptions: 0,
    optionKeys: {
      Catastrophic: "filters.option.Catastrophic",
      Bronze: "filters.option.Bronze",
      "Expanded Bronze": "filters.option.ExpandedBronze",
      Silver: "filters.option.Silver",
      Gold: "filters.option.Gold",
      Platinum: "filters.option.Platinum",
    },
    keeps: (plan, chosen) => chosen.includes(plan.metal_level),
  },
  {
    kind: "choices",
    field: "types",
    urlKey: "type",
    stateField: "type",
    values: ["HMO", "PPO", "EPO", "POS", "Indemnity"],
    maxItems: 5,
    options: "types",
    minOptions: 2,
    optionKeys: {
      HMO: "filters.option.HMO",
      EPO: "filters.option.EPO",
      POS: "filters.option.POS",
      PPO: "filters.option.PPO",
      Indemnity: "filters.option.Indemnity",
    },
    keeps: (plan, chosen) => chosen.includes(plan.type ?? ""),
  },
  {
    kind: "choices",
    field: "issuers",
    urlKey: "issuer",
    stateField: "issuer",
    maxLength: 200,
    urlPattern: /^\d{5}$/,
    maxItems: 50,
    options: "issuers",
    minOptions: 2,
    description: "Issuer names or 5-digit issuer ids",
    keeps: (plan, chosen) => {
      const id = plan.issuer.id.toLowerCase();
      const name = plan.issuer.name.toLowerCase();
      return chosen.some((wanted) => {
        const w = wanted.trim().toLowerCase();
        return w === id || w === name;
      });
    },
  },
  {
    kind: "flag",
    field: "hsa_eligible",
    urlKey: "hsa",
    stateField: "hsa",
    group: "costs",
    keeps: (plan, wanted) => plan.hsa_eligible === wanted,
  },
  {
    kind: "flag",
    field: "standardized",
    urlKey: "standardized",
    stateField: "standardized",
    group: "costs",
    description: "Only standardized plan designs (Easy Pricing on HealthCare.gov, a state's standard benefit designs)",
    keeps: (plan, wanted) => plan.standardized === wanted,
  },
  {
    kind: "amount",
    field: "max_premium",
    urlKey: "max_premium",
    stateField: "maxPremium",
    group: "costs",
    min: 0,
    max: 1_000_000,
    description: "Maximum monthly premium after the credit",
    keeps: (plan, amount) => plan.premium_w_credit <= amount,
  },
  {
    kind: "amount",
    field: "max_deductible",
    urlKey: "max_deductible",
    stateField: "maxDeductible",
    group: "costs",
    min: 0,
    max: 1_000_000,
    description: "Maximum individual in-network deductible",
    // A plan that states no deductible cannot be shown to be under any maximum.
    keeps: (plan, amount) => (plan.deductible.individual ?? Infinity) <= amount,
  },
] as const satisfies readonly PlanFilter[];

type Filters = (typeof PLAN_FILTERS)[number];

/** A filter's value in a plans request. */
type ApiValueOf<F> = F extends { kind: "choices"; values: readonly (infer V)[] }
  ? V[]
  : F extends { kind: "choices" }
    ? string[]
    : F extends { kind: "flag" }
      ? boolean
      : number;

/** The filters of a plans request (POST /api/plans `filters`): each optional, named by its `field`. */
export type PlanFilterValues = { [F in Filters as F["field"]]?: ApiValueOf<F> };

/** A filter's value in the URL's shopping state: as typed, checked later. */
type StateValueOf<F> = F extends { kind: "choices" } ? string[] : F extends { kind: "flag" } ? boolean : string;

/** The filter fields of the URL's shopping state, named by each filter's `stateField`. */
export type FilterState = { [F in Filters as F["stateField"]]: StateValueOf<F> };

/** Whether a filter's value in a request asks for anything (an empty choice list does not). */
function isSet(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** Which plans a request's filters keep; null when no filter is set (every plan is kept). */
export type PlanPredicate = (plan: FilterFields) => boolean;

/**
 * The request's filters as one predicate, made once per list: only the filters
 * set are in it, so a plan is tested against those alone.
 */
export function filterPredicate(filters: PlanFilterValues | undefined): PlanPredicate | null {
  if (!filters) return null;
  const values = filters as Record<string, unknown>;
  const tests: Array<[keeps: (plan: FilterFields, value: unknown) => boolean, value: unknown]> = [];
  for (const filter of PLAN_FILTERS as readonly PlanFilter[]) {
    const value = values[filter.field];
    if (isSet(value)) tests.push([filter.keeps as (plan: FilterFields, value: unknown) => boolean, value]);
  }
  if (tests.length === 0) return null;
  return (plan) => {
    for (let t = 0; t < tests.length; t++) if (!tests[t][0](plan, tests[t][1])) return false;
    return true;
  };
}

/** Whether a plan passes every filter set (an unset filter keeps every plan). */
export function passesFilters(plan: FilterFields, filters: PlanFilterValues | undefined): boolean {
  return filterPredicate(filters)?.(plan) ?? true;
}
