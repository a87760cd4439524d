import { type z } from "zod";
import {
  CountiesQuery,
  CountiesResponse,
  EligibilityResponse,
  PlansRequest,
  PlansResponse,
  ShoppingRequest,
} from "../../schemas/shopping";
import { RenewalRequest, RenewalResponse } from "../../schemas/renewal";
import { EnrollmentApplicationInput } from "../intake/enrollment.server";
import { UploadFields } from "../intake/storage.server";
import {
  DrugAutocompleteBody,
  DrugCoveredBody,
  ProviderAutocompleteBody,
  ProviderCoveredBody,
} from "../upstream/requests.server";
import { AgentDiscoveryInput, WaitlistInput } from "../intake/write-store.server";
import {
  ApiErrorResponse,
  DiscoveryResponse,
  DrugAutocompleteResponse,
  DrugCoveredResponse,
  EnrollmentApplicationResponse,
  EnrollmentCreatedResponse,
  HealthResponse,
  ProviderAutocompleteResponse,
  ProviderCoveredResponse,
  UnsubscribeResponse,
  UploadResponse,
  WaitlistResponse,
} from "./openapi-answers.server";
import { env } from "./env.server";
import { completeOperations, HEADERS, nullInNullableEnums } from "./openapi-edges.server";
import { intakePaths } from "./openapi-intake.server";
import {
  BODY_ERRORS,
  componentSchemas,
  error,
  json,
  jsonBody,
  queryParameters,
  SHOPPING_EXAMPLE,
  type Json,
} from "./openapi-parts.server";

export { ApiErrorResponse };

/**
 * The OpenAPI 3.0 document served at GET /api/openapi.json.
 *
 * Request bodies and query strings are generated (zod 4's toJSONSchema, input
 * side) from the very schemas the routes validate with, so the document cannot
 * drift from what the routes accept. Response bodies come from the schemas in
 * app/schemas/shopping.ts where they exist; the other routes' answers are
 * described in ./openapi-answers.server.ts, mirroring their TypeScript types
 * (docs/api.md is the prose).
 * docs/decisions/093-openapi-from-zod.md.
 */

/** Request components by name: the zod schema each route validates with (the contract tests compare the two). */
export const REQUESTS: Record<string, z.ZodType> = {
  ShoppingRequest,
  PlansRequest,
  RenewalRequest,
  CountiesQuery,
  DrugAutocompleteRequest: DrugAutocompleteBody,
  DrugCoveredRequest: DrugCoveredBody,
  ProviderAutocompleteRequest: ProviderAutocompleteBody,
  ProviderCoveredRequest: ProviderCoveredBody,
  WaitlistRequest: WaitlistInput,
  AgentDiscoveryRequest: AgentDiscoveryInput,
  AgentUploadFields: UploadFields,
  EnrollmentApplicationRequest: EnrollmentApplicationInput,
};

const RESPONSES: Record<string, z.ZodType> = {
  Error: ApiErrorResponse,
  HealthResponse,
  CountiesResponse,
  EligibilityResponse,
  PlansResponse,
  RenewalResponse,
  DrugAutocompleteResponse,
  ProviderAutocompleteResponse,
  DrugCoveredResponse,
  ProviderCoveredResponse,
  WaitlistResponse,
  DiscoveryResponse,
  UploadResponse,
  UnsubscribeResponse,
  EnrollmentCreatedResponse,
  EnrollmentApplicationResponse,
};

let cached: Json | undefined;

/** The whole document (built once per process: the schemas do not change at run time). */
export function openApiDocument(): Json {
  if (cached) return cached;
  const requests = componentSchemas(REQUESTS, "input");
  const responses = componentSchemas(RESPONSES, "output");
  const countiesQuery = requests.CountiesQuery;
  delete requests.CountiesQuery;

  const paths: Json = {
    "/api/health": {
      get: {
        tags: ["Service"],
        summary: "Health check (load balancer and deploy smoke test)",
        operationId: "getHealth",
        description:
          "Cheap by design: no upstream call. Says which build runs, whether the upstream is the sample fake, live, refusing our key or busy, what plan data is loaded, how far our own subsidy estimate drifts from upstream's, and whether limits are shared on Redis.",
        responses: { "200": json("HealthResponse", "The service is up") },
      },
    },
    "/api/openapi.json": {
      get: {
        tags: ["Service"],
        summary: "This document",
        operationId: "getOpenApiDocument",
        description:
          "The OpenAPI 3.0.3 document of every /api operation, generated from the schemas the routes validate with.",
        responses: {
          "200": {
            description: "OpenAPI 3.0 document",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
    "/api/counties": {
      get: {
        tags: ["Shopping"],
        summary: "Counties of a ZIP code, largest share first; sbeRedirect for state-based marketplaces",
        operationId: "getCounties",
        description:
          "Answered from own ZIP-county data; only a ZIP absent from it goes to the upstream look-up. `state` narrows a ZIP that crosses a state line.",
        parameters: queryParameters(countiesQuery),
        responses: {
          "200": json("CountiesResponse", "The county matches (possibly none)"),
          "400": error("Malformed zip, state or year (validation_failed, with `fields`)"),
          "404": error("No plan data for the year (year_not_available)"),
          "405": error("Wrong method"),
          "503": error("ZIP not in own data and the upstream look-up is unavailable (county_lookup_unavailable)"),
        },
      },
    },
    "/api/eligibility": {
      post: {
        tags: ["Shopping"],
        summary:
          "Subsidy estimate: aptc, csr, is_medicaid_chip, in_coverage_gap (NY computed here, other states from upstream)",
        operationId: "postEligibility",
        description:
          "The household's monthly premium tax credit, cost-sharing reduction and Medicaid/CHIP, coverage-gap or Essential Plan guidance for the place and year. New York is computed here; other states come from upstream, with our own estimate when upstream cannot answer.",
        requestBody: jsonBody("ShoppingRequest", SHOPPING_EXAMPLE),
        responses: {
          "200": json("EligibilityResponse", "The estimate"),
          ...BODY_ERRORS,
          "404": error("No plan data for the year (year_not_available)"),
          "409": error("The state runs its own marketplace (state_based_marketplace)"),
          "422": error(
            "Upstream refused this household, place or year (upstream_bad_place, upstream_state_not_served, upstream_year_not_served, upstream_refused), or no silver plan in own data for a NY place (benchmark_unavailable)",
          ),
          "503": error("Neither upstream's estimate nor our own could be made (eligibility_unavailable)"),
        },
      },
    },
    "/api/plans": {
      post: {
        tags: ["Shopping"],
        summary: "Every plan offered at the place, priced for the household, filtered and sorted",
        operationId: "postPlans",
        description:
          "Plans from the service's own plan store (upstream plan search for states without own data), each priced before and after the credit, filtered, sorted over the whole list and paged.",
        requestBody: jsonBody("PlansRequest", {
          ...SHOPPING_EXAMPLE,
          filters: { metal_levels: ["Silver"] },
          sort: "premium",
          order: "asc",
          usage: "medium",
        }),
        responses: {
          "200": json(
            "PlansResponse",
            "Priced plans, one page (`limit`, default 50, from `offset`) of the sorted, filtered list; `plan_count` counts all pages; `eligibility` is null (and prices are full) when the estimate is unavailable",
          ),
          ...BODY_ERRORS,
          "404": error("No plan data for the year (year_not_available)"),
          "409": error("The state runs its own marketplace (state_based_marketplace)"),
          "503": error("Federal plan search unavailable (plans_unavailable; states without own data only)"),
        },
      },
    },
    "/api/renewal": {
      post: {
        tags: ["Shopping"],
        summary:
          "Next year's plan for the one you have (Plan ID Crosswalk), both priced, what changes and what beats it",
        operationId: "postRenewal",
        description:
          "This year's plan priced with this year's credit and the plan the CMS Plan ID Crosswalk renews it into in the household's county, priced with next year's credit by the /api/plans engine; the changes in premium after credit, deductible and out-of-pocket maximum; each drug's and doctor's coverage in both years; and the plans with the lowest yearly cost that beat the mapped plan, with why (docs/api.md).",
        requestBody: jsonBody("RenewalRequest", {
          current_plan_id: "10101TX0019001-01",
          income: 38000,
          household: { people: [{ age: 40 }] },
          place: { state: "TX", county_fips: "48113", zip: "75201" },
          drugs: [{ rxcui: "617318", name: "atorvastatin 20 MG Oral Tablet" }],
        }),
        responses: {
          "200": json(
            "RenewalResponse",
            "The renewal: outcome, crosswalk row, both years priced, changes, alternatives",
          ),
          ...BODY_ERRORS,
          "404": error(
            "No plan with that ID in this year's plans, or no plan data for a year (plan_not_found, naming current_plan_id; year_not_available)",
          ),
          "409": error("The state runs its own marketplace (state_based_marketplace)"),
        },
      },
    },
    "/api/drugs/autocomplete": {
      post: {
        tags: ["Drugs and doctors"],
        summary: "Drug names with RxCUIs (upstream; empty when it is down)",
        operationId: "postDrugAutocomplete",
        description:
          "Suggestions for typed drug names. When upstream cannot answer the list is empty, `upstream` says unavailable or busy and `notice` says why.",
        requestBody: jsonBody("DrugAutocompleteRequest", { query: "lipit" }),
        responses: { "200": json("DrugAutocompleteResponse", "Suggestions"), ...BODY_ERRORS },
      },
    },
    "/api/providers/autocomplete": {
      post: {
        tags: ["Drugs and doctors"],
        summary: "Doctors, facilities and groups by name near a ZIP (three upstream calls, merged)",
        operationId: "postProviderAutocomplete",
        description:
          "Suggestions for a typed provider name near a ZIP. When some upstream calls fail `upstream` is partial and `failedTypes` names them; when none answer, unavailable or busy with a `notice`.",
        requestBody: jsonBody("ProviderAutocompleteRequest", { query: "avery", zip: "75201" }),
        responses: { "200": json("ProviderAutocompleteResponse", "Suggestions"), ...BODY_ERRORS },
      },
    },
    "/api/drugs/covered": {
      post: {
        tags: ["Drugs and doctors"],
        summary: "Coverage of drugs by plans (upstream, tiers from own formulary rows)",
        operationId: "postDrugsCovered",
        description:
          "One result per drug and plan: upstream's coverage with tiers and restrictions from the plan store's formulary rows; own rows alone when upstream cannot answer.",
        requestBody: jsonBody("DrugCoveredRequest", { rxcuis: ["617318"], plan_ids: ["10101TX0010004"] }),
        responses: { "200": json("DrugCoveredResponse", "One result per (rxcui, plan_id)"), ...BODY_ERRORS },
      },
    },
    "/api/providers/covered": {
      post: {
        tags: ["Drugs and doctors"],
        summary: "Network status of providers in plans (upstream, tiers from own network rows)",
        operationId: "postProvidersCovered",
        description:
          "One result per provider and plan: upstream's network status with tiers from the plan store's network rows; own rows alone when upstream cannot answer.",
        requestBody: jsonBody("ProviderCoveredRequest", { npis: ["1000000004"], plan_ids: ["10101TX0010004"] }),
        responses: { "200": json("ProviderCoveredResponse", "One result per (npi, plan_id)"), ...BODY_ERRORS },
      },
    },
    ...intakePaths(),
  };

  completeOperations(paths);
  const schemas = { ...requests, ...responses };
  nullInNullableEnums(schemas);

  cached = {
    openapi: "3.0.3",
    info: {
      title: "Health-plan marketplace API",
      version: "1.0.0",
      contact: { name: "Health Plan Marketplace operations", email: env().OPERATIONS_EMAIL },
      description:
        "ZIP to county, subsidy estimate and priced plans; drug and doctor coverage; waitlist and agent intake. " +
        'Every error is {"error": {"code", "message", "fields"?}}. Prose: docs/api.md.',
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "Shopping", description: "ZIP to county, subsidy estimate, priced plans" },
      { name: "Drugs and doctors", description: "Drug and doctor look-ups and their coverage by plans" },
      { name: "Intake", description: "Waitlist, agent discovery, enrollment applications, unsubscribe" },
      { name: "Service", description: "Health and this document" },
    ],
    paths,
    components: {
      schemas,
      headers: HEADERS,
      securitySchemes: {
        applicationToken: {
          type: "http",
          scheme: "bearer",
          description: "The access_token returned when the application was created",
        },
      },
    },
  };
  return cached;
}
