import { z } from "zod";
import { PROVIDER_TYPE_ORDER, type ProviderTypeName } from "../../domain/coverage-suggestions";

/**
 * The CMS Marketplace API's response shapes as the live API sends them, which
 * differ from its published spec (see docs/reference/upstream-api.md §1):
 * the autocomplete endpoints answer a bare array, the coverage endpoints
 * `{coverage: [...]}`. A body that does not match is treated as an outage
 * ("malformed"), never half-used. Unknown extra fields are ignored.
 */

const text = z.union([z.string(), z.number()]).transform(String);
const optionalText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? "" : String(v)));
const textList = z
  .array(z.union([z.string(), z.number()]))
  .nullish()
  .transform((v) => (v ?? []).map(String));

export const DrugSuggestionSchema = z.object({
  rxcui: text,
  name: z.string(),
  strength: optionalText,
  route: optionalText,
  full_name: optionalText,
  rxterms_dose_form: optionalText,
  rxnorm_dose_form: optionalText,
});
export type UpstreamDrugSuggestion = z.infer<typeof DrugSuggestionSchema>;
export const DrugAutocompleteResponse = z.array(DrugSuggestionSchema);

// The provider types are the domain's (app/domain/coverage-suggestions.ts): one
// declaration. These aliases keep the client's names until it imports the domain's.
export { PROVIDER_TYPE_ORDER as PROVIDER_TYPES, type ProviderTypeName as ProviderType };

export const ProviderSuggestionSchema = z
  .object({
    npi: text,
    name: z.string(),
    // Live name is provider_type; the spec calls it type. Read either.
    provider_type: z.string().optional(),
    type: z.string().optional(),
    specialties: textList,
    accepting: z.string().nullish(),
    gender: z.string().nullish(),
    languages: textList,
    facility_types: textList,
    taxonomy: z.string().nullish(),
  })
  .transform((p) => ({
    npi: p.npi,
    name: p.name,
    type: p.provider_type ?? p.type ?? "",
    specialties: p.specialties,
    accepting: p.accepting ?? null,
    gender: p.gender || null,
    languages: p.languages,
    facility_types: p.facility_types,
    taxonomy: p.taxonomy || null,
  }));
export type UpstreamProviderSuggestion = z.infer<typeof ProviderSuggestionSchema>;
export const ProviderAutocompleteResponse = z.array(ProviderSuggestionSchema);

/**
 * Coverage values are read as text: a value outside the documented enum is
 * kept as given and the merge treats it as unknown, never as NotCovered.
 */
export const DrugCoverageRowSchema = z.object({
  rxcui: text,
  plan_id: z.string(),
  coverage: z.string(),
  generic_rxcui: text.nullish(),
});
export type UpstreamDrugCoverageRow = z.infer<typeof DrugCoverageRowSchema>;
export const DrugCoverageResponse = z.object({ coverage: z.array(DrugCoverageRowSchema) });

export const AddressSchema = z.object({
  street_1: optionalText,
  street_2: optionalText,
  city: optionalText,
  state: optionalText,
  zipcode: optionalText,
  countyfips: optionalText,
});
/**
 * GET /providers/search answers NearbyProvider items, `{provider, address, distance}`
 * (spec; the live envelope was not checked, so `{providers: [...]}` and a bare array
 * are both read). The address is the one nearest the ZIP asked about.
 */
export const NearbyProviderSchema = z
  .object({
    provider: ProviderSuggestionSchema,
    address: AddressSchema.nullish(),
    distance: z.number().nullish(),
  })
  .transform((n) => ({
    ...n.provider,
    address: n.address && (n.address.city || n.address.street_1) ? n.address : null,
    distance: n.distance ?? null,
  }));
export type UpstreamNearbyProvider = z.infer<typeof NearbyProviderSchema>;
/** One page of a provider search: 25 from `offset`, and `total` over all pages (recorded live answers). */
export const ProviderSearchResponse = z.union([
  z
    .object({ providers: z.array(NearbyProviderSchema).nullish(), total: z.number().int().min(0).nullish() })
    .transform((r) => ({ providers: r.providers ?? [], total: r.total ?? (r.providers ?? []).length })),
  z.array(NearbyProviderSchema).transform((providers) => ({ providers, total: providers.length })),
]);
export type UpstreamProviderSearchPage = z.infer<typeof ProviderSearchResponse>;

export const ProviderCoverageRowSchema = z.object({
  npi: text,
  plan_id: z.string(),
  coverage: z.string(),
  accepting: z.string().nullish(),
  addresses: z.array(AddressSchema).nullish(),
});
export type UpstreamProviderCoverageRow = z.infer<typeof ProviderCoverageRowSchema>;
export const ProviderCoverageResponse = z.object({ coverage: z.array(ProviderCoverageRowSchema) });

export const CountySchema = z.object({
  fips: text,
  name: z.string(),
  state: z.string(),
  zipcode: text,
});
export type UpstreamCounty = z.infer<typeof CountySchema>;
export const CountiesResponse = z.object({ counties: z.array(CountySchema) });

/**
 * A Medicaid-level estimate may come without `aptc` or with `aptc: null`
 * (issue 16): that is no credit, not a broken answer.
 */
export const EligibilityEstimateSchema = z.object({
  aptc: z
    .number()
    .nullish()
    .transform((v) => v ?? 0),
  csr: z.string().nullish(),
  hardship_exemption: z.boolean().nullish(),
  is_medicaid_chip: z.boolean().nullish(),
  in_coverage_gap: z.boolean().nullish(),
});
export type UpstreamEligibilityEstimate = z.infer<typeof EligibilityEstimateSchema>;
export const EligibilityResponse = z.object({ estimates: z.array(EligibilityEstimateSchema) });

/** A plan object: the fields the service relies on are checked, the rest kept as sent. */
export const PlanSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  premium: z.number(),
  premium_w_credit: z.number().nullish(),
  ehb_premium: z.number().nullish(),
  metal_level: z.string(),
  type: z.string().nullish(),
  state: z.string().nullish(),
  issuer: z.looseObject({ id: text.nullish(), name: z.string().nullish() }).nullish(),
});
export type UpstreamPlan = z.infer<typeof PlanSchema>;
export const PlanSearchResponse = z.looseObject({
  plans: z.array(PlanSchema),
  // Absent total: the page is all there is.
  total: z.number().int().nonnegative().nullish(),
  facet_groups: z.array(z.unknown()).nullish(),
  rate_area: z.looseObject({ state: z.string().nullish(), area: z.number().nullish() }).nullish(),
  ranges: z.unknown().optional(),
});

/** GET /market-years: the current year and every year served. */
export const MarketYearsResponse = z.object({
  current: z.number().int(),
  supported: z
    .array(z.number().int())
    .nullish()
    .transform((v) => v ?? []),
});

/** Error bodies: the spec's prose says message/error, its definitions msg/err. */
export const ErrorBodySchema = z.looseObject({
  code: text.nullish(),
  message: z.string().nullish(),
  error: z.string().nullish(),
  msg: z.string().nullish(),
  err: z.string().nullish(),
});
