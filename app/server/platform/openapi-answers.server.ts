import { z } from "zod";
import { PROVIDER_TYPE_ORDER } from "../../domain/coverage-suggestions";
import type { EligibilityDrift } from "../shopping/eligibility-fallback.server";
import type {
  DrugCoverageAnswer,
  DrugSuggestionsAnswer,
  ProviderCoverageAnswer,
  ProviderSuggestionsAnswer,
} from "../upstream/lookups.server";
import type { sharedStateStatus } from "./shared-state.server";
import type { writeStoreStatus } from "../intake/write-store-health.server";

/**
 * Answer shapes for the OpenAPI document (./openapi.server.ts) of the routes
 * whose answers have no schema in app/schemas: they mirror the routes'
 * TypeScript types (documentation only; docs/api.md is the prose).
 */

/** The one JSON error shape of every /api route (app/server/platform/api.server.ts). */
export const ApiErrorResponse = z.strictObject({
  error: z.strictObject({
    code: z
      .string()
      .describe("Stable machine-readable code, e.g. validation_failed, year_not_available, eligibility_unavailable"),
    message: z.string().describe("A sentence a person can read"),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .describe('Validation failures only: each bad field path (e.g. "household.people.0.age") and why'),
  }),
});

const UpstreamState = z
  .enum(["ok", "partial", "unavailable", "busy"])
  .describe(
    "ok; partial: some upstream calls failed; unavailable: none answered; busy: the upstream call budget is spent (see notice)",
  );
/** Why upstream gave no answer (app/server/upstream/lookups.server.ts UpstreamNotice), with upstream unavailable or busy. */
const UpstreamNotice = z
  .object({ code: z.string(), message: z.string().describe("A sentence a person can read") })
  .optional()
  .describe("Set when upstream gave no answer: why");
const CoverageValue = z.enum(["Covered", "NotCovered", "PartialCovered", "GenericCovered", "DataNotProvided"]);
const CoverageSource = z.enum(["upstream", "own_data", "none"]);

export const HealthResponse = z.object({
  status: z
    .enum(["ok", "degraded"])
    .describe("degraded: pages and prices are served, but the write store cannot be reached (writes answer 503)"),
  commit: z.string().describe("Build revision"),
  env: z.string().describe("Deployment name (DEPLOY_ENV)"),
  upstream: z
    .enum(["sample", "live", "key_rejected", "busy"])
    .describe(
      "sample: answers come from the bundled fake upstream; key_rejected: upstream refused our key and has not answered since; busy: waiting out upstream's Retry-After",
    ),
  planData: z.enum(["sample", "real", "missing"]),
  planStore: z
    .object({
      complete: z.boolean().describe("false: loaded with --allow-incomplete despite failing the completeness gate"),
      problems: z.array(z.string()).describe("One line per failed gate condition"),
      loadedAt: z.string().nullable().describe("When the seed pipeline built the store"),
      source: z.string().nullable().describe("The source directory the store was loaded from"),
      planYears: z.array(z.number().int()),
      publishedVersion: z
        .string()
        .nullable()
        .optional()
        .describe(
          "With PLAN_STORE_URL: the published version this machine's store is (null: not a published one); absent without it",
        ),
    })
    .nullable()
    .describe("The plan store's own metadata; null when no store is loaded"),
  eligibilityDrift: z
    .object({
      compared: z.number().int().describe("Fresh upstream estimates compared with our own"),
      meanAbsAptc: z.number().describe("Mean absolute difference of the monthly credit, dollars"),
      maxAbsAptc: z.number().describe("Largest absolute difference of the monthly credit, dollars"),
      csrDiffers: z.number().int().describe("Comparisons where the cost-sharing reduction differed"),
      medicaidDiffers: z.number().int().describe("Comparisons where the Medicaid/CHIP verdict differed"),
    })
    .describe("How far our own subsidy estimate is from upstream's (decision 205)"),
  sharedState: z
    .object({
      shared: z.boolean().describe("Limits and caches are shared on Redis (REDIS_URL set)"),
      fallbacks: z.number().int().describe("Decisions this process made alone while Redis could not answer"),
      redis: z
        .enum(["ok", "unavailable", "off"])
        .describe(
          "off: no REDIS_URL; unavailable: not connected, or connected but not answering (this process then uses its own counts and sends Redis nothing until a PING answers)",
        ),
    })
    .describe("Limits shared on Redis and this process's fallbacks"),
  writeStore: z
    .object({
      state: z.enum(["ok", "unavailable"]).describe("unavailable: writes answer 503 write_store_unavailable"),
      since: z.string().optional().describe("When the write store became unreachable (ISO 8601)"),
      outages: z.number().int().describe("Write-store outages this process has seen"),
    })
    .describe("Whether the write store can be reached (docs/decisions/370)"),
  warnings: z.array(z.string()).describe("Names of settings with a start-up warning"),
});

export const DrugAutocompleteResponse = z.object({
  drugs: z.array(
    z.object({ rxcui: z.string(), name: z.string(), strength: z.string(), route: z.string(), full_name: z.string() }),
  ),
  upstream: z.enum(["ok", "unavailable", "busy"]),
  notice: UpstreamNotice,
  sample: z.boolean(),
});

export const ProviderAutocompleteResponse = z.object({
  providers: z
    .array(
      z.object({
        npi: z.string(),
        name: z.string(),
        type: z.enum(PROVIDER_TYPE_ORDER),
        specialties: z.array(z.string()),
        accepting: z.string().nullable(),
        gender: z.string().nullable(),
        languages: z.array(z.string()),
        facility_types: z.array(z.string()),
        address: z
          .object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() })
          .nullable()
          .describe("Where the provider practises, nearest the ZIP; null for groups and when upstream gives none"),
        distance: z
          .number()
          .nullable()
          .describe(
            "Miles from the ZIP to that address (upstream's provider search); null for groups and when it gave none",
          ),
      }),
    )
    .describe("Nearest first where a distance is given; then groups, in upstream's order"),
  upstream: UpstreamState,
  notice: UpstreamNotice,
  failedTypes: z.array(z.enum(PROVIDER_TYPE_ORDER)).optional(),
  paging: z
    .object({
      offset: z.number().int().describe("Doctors and facilities skipped (the request's offset)"),
      page_size: z.number().int().describe("Upstream's page: 25 of each type"),
      total: z.number().int().describe("Doctors and facilities over all pages, as upstream counts them"),
    })
    .describe("Upstream's provider search pages; send offset to page on"),
  sample: z.boolean(),
});

export const DrugCoveredResponse = z.object({
  coverage: z.array(
    z.object({
      rxcui: z.string(),
      plan_id: z.string(),
      coverage: CoverageValue,
      drug_tier: z.string().nullable(),
      generic_rxcui: z.string().optional(),
      restrictions: z
        .object({ prior_authorization: z.boolean(), step_therapy: z.boolean(), quantity_limit: z.boolean() })
        .optional(),
      source: CoverageSource,
    }),
  ),
  upstream: UpstreamState,
  notice: UpstreamNotice,
  year: z.number().int(),
  sample: z.boolean(),
});

export const ProviderCoveredResponse = z.object({
  coverage: z.array(
    z.object({
      npi: z.string(),
      plan_id: z.string(),
      coverage: CoverageValue,
      network_tier: z.string().nullable(),
      accepting: z.string().optional(),
      source: CoverageSource,
    }),
  ),
  upstream: UpstreamState,
  notice: UpstreamNotice,
  year: z.number().int(),
  sample: z.boolean(),
});

export const WaitlistResponse = z.object({ waitlist_submission_id: z.string().describe("24 hex characters") });
export const DiscoveryResponse = z.object({ discovery_submission_id: z.string().describe("24 hex characters") });
export const UploadResponse = z.object({
  key: z.string().describe("agent-survey-uploads/<docType>/<epoch-millis>-<upload_id>-<safe file name>"),
  upload_id: z.string(),
  content_type: z.enum(["application/pdf", "image/jpeg", "image/png"]),
  size_bytes: z.number().int(),
});
export const UnsubscribeResponse = z.object({ unsubscribed: z.literal(true), already_unsubscribed: z.boolean() });
export const EnrollmentCreatedResponse = z.object({
  application_id: z.string(),
  status: z.literal("received"),
  access_token: z.string().describe("Shown once: needed to read the application back"),
});
export const EnrollmentApplicationResponse = z.object({
  application_id: z.string(),
  status: z.string(),
  submitted_at: z.string(),
  plan_id: z.string(),
  year: z.number().int(),
  place: z.object({ state: z.string(), county_fips: z.string(), zip: z.string() }),
  household: z.looseObject({}),
  income: z.number(),
  contact: z.looseObject({}),
  attestation: z.object({ version: z.string(), attested_at: z.string() }),
});

/**
 * The shapes above are the routes' TypeScript answer types, checked by the compiler: a field added to
 * an answer type and not here (or here and not there) fails `npm run typecheck` (issue 31).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const answerTypesMatch: [
  Same<z.output<typeof DrugAutocompleteResponse>, DrugSuggestionsAnswer>,
  Same<z.output<typeof ProviderAutocompleteResponse>, ProviderSuggestionsAnswer>,
  Same<z.output<typeof DrugCoveredResponse>, DrugCoverageAnswer>,
  Same<z.output<typeof ProviderCoveredResponse>, ProviderCoverageAnswer>,
  Same<z.output<typeof HealthResponse>["eligibilityDrift"], EligibilityDrift>,
  Same<z.output<typeof HealthResponse>["sharedState"], ReturnType<typeof sharedStateStatus>>,
  Same<z.output<typeof HealthResponse>["writeStore"], ReturnType<typeof writeStoreStatus>>,
] = [true, true, true, true, true, true, true];
