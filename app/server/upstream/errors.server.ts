/**
 * What can go wrong with an upstream call, and what each failure means to a
 * consumer (docs/decisions/200-upstream-error-classes.md).
 *
 * Two error classes carry a failure: `UpstreamUnavailableError` (the upstream
 * could not answer: outage, budget, rejected key) and `UpstreamRejectedError`
 * (it answered 4xx about the request itself). `upstreamProblem` sorts either
 * into one of the classes below, each with its own code and consumer message.
 */

export type UpstreamOperation =
  | "drugs.autocomplete"
  | "providers.autocomplete"
  | "providers.search"
  | "drugs.covered"
  | "providers.covered"
  | "counties.by_zip"
  | "eligibility.estimates"
  | "plans.search"
  | "market_years";

export type OutageReason =
  | "not_configured"
  | "connection"
  | "timeout"
  | "server_error"
  | "rate_limited"
  | "unauthorized"
  | "malformed"
  /** The answer was larger than any real one can be (transport.server.ts, ANSWER_MAX_BYTES): not read. */
  | "too_large"
  | "busy";

/** The upstream could not answer: the caller degrades as the specification says. */
export class UpstreamUnavailableError extends Error {
  override name = "UpstreamUnavailableError";
  constructor(
    readonly operation: UpstreamOperation,
    readonly reason: OutageReason,
    readonly status?: number,
  ) {
    super(`Upstream ${operation} unavailable (${reason}${status ? ` ${status}` : ""})`);
  }
}

/** The upstream answered 4xx (other than 401/403/429): the request itself was refused. */
export class UpstreamRejectedError extends Error {
  override name = "UpstreamRejectedError";
  constructor(
    readonly operation: UpstreamOperation,
    readonly status: number,
    readonly upstreamCode: string | null,
    readonly upstreamMessage: string,
    /** Set when the service refused before calling (a year upstream does not serve). */
    readonly year?: number,
  ) {
    super(`Upstream ${operation} rejected the request (${status}): ${upstreamMessage}`);
  }
}

export function isUpstreamFailure(error: unknown): error is UpstreamUnavailableError | UpstreamRejectedError {
  return error instanceof UpstreamUnavailableError || error instanceof UpstreamRejectedError;
}

/** The message the real API sends for a plan year it does not serve. */
export const INVALID_MARKET_YEAR = "Invalid market year";

export type UpstreamProblemKind =
  | "year_not_served"
  | "state_not_served"
  | "bad_place"
  | "bad_code"
  | "refused"
  | "key_rejected"
  | "over_budget"
  | "outage";

export interface UpstreamProblem {
  kind: UpstreamProblemKind;
  /** HTTP status a route answers when it cannot degrade (422: this request; 503: try again later). */
  status: 422 | 503;
  /** The `error.code` of the API's error shape. */
  code: string;
  /** One or two sentences for the consumer. */
  message: string;
  /** The field to point at, when one is to blame. */
  field?: string;
}

/**
 * Sorts an upstream failure by what the consumer can do about it. The real
 * API's 4xx bodies carry little more than `message` (upstream-api.md §11), so
 * the message text and the documented codes (1001 county, 1002 state,
 * 1006 plan, 1013 provider, 1014 drug, 1017 rate area) decide.
 */
export function upstreamProblem(error: UpstreamUnavailableError | UpstreamRejectedError): UpstreamProblem {
  if (error instanceof UpstreamUnavailableError) {
    if (error.reason === "unauthorized") {
      return {
        kind: "key_rejected",
        status: 503,
        code: "upstream_key_rejected",
        message:
          "The federal Marketplace is not accepting this site's connection right now. We have been alerted; please try again later.",
      };
    }
    if (error.reason === "busy" || error.reason === "rate_limited") {
      return {
        kind: "over_budget",
        status: 503,
        code: "upstream_busy",
        message:
          "The federal Marketplace is busy with many requests from this site right now. Please try again in a minute.",
      };
    }
    return {
      kind: "outage",
      status: 503,
      code: "upstream_unavailable",
      message: "The federal Marketplace service did not answer. Please try again shortly.",
    };
  }
  const text = error.upstreamMessage.toLowerCase();
  const code = error.upstreamCode ?? "";
  if (text.includes("market year") || /\byear\b/.test(text)) {
    return {
      kind: "year_not_served",
      status: 422,
      code: "upstream_year_not_served",
      message: `The federal Marketplace has no data for plan year ${error.year ?? "asked for"} yet. Choose another plan year, or try again once it is published.`,
      field: "year",
    };
  }
  if (text.includes("marketplace state") || code === "1002" || /\bstate\b/.test(text)) {
    return {
      kind: "state_not_served",
      status: 422,
      code: "upstream_state_not_served",
      message: "The federal Marketplace does not sell plans in this state: it has its own marketplace.",
      field: "place.state",
    };
  }
  if (["1001", "1017"].includes(code) || /countyfips|county|zipcode|\bzip\b|place|rate area/.test(text)) {
    return {
      kind: "bad_place",
      status: 422,
      code: "upstream_bad_place",
      message: "The federal Marketplace did not recognise this place. Check the state, county and ZIP code.",
      field: "place",
    };
  }
  if (["1006", "1013", "1014"].includes(code) || /rxcui|drug|npi|provider|plan ?id/.test(text)) {
    return {
      kind: "bad_code",
      status: 422,
      code: "upstream_bad_code",
      message: "The federal Marketplace did not recognise a drug, doctor or plan in this request.",
    };
  }
  return {
    kind: "refused",
    status: 422,
    code: "upstream_refused",
    message: `The federal Marketplace could not answer for this request: ${error.upstreamMessage.slice(0, 200)}.`,
  };
}
