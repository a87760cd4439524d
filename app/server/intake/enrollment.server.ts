import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { Household, Place, Year } from "../../schemas/shopping";
import { ApiError } from "../platform/api.server";
import { captureServerEvent } from "../platform/analytics.server";
import { AT_LEAST_TWO, NOT_BLANK, paddedWith } from "../../schemas/text-as-sent";
import {
  emailField,
  newSubmissionId,
  PHONE_OR_NOTHING_AS_SENT,
  openWriteStore,
  withWriteStore,
} from "./write-store.server";
import { emailKey } from "./unsubscribe-token.server";
import { accessTokenFromKey, idempotencyClaim, recordOf } from "./idempotency.server";

/**
 * Enrollment applications (spec decision 17, docs/decisions/065): a shopper
 * asks for help enrolling in a chosen plan. The application is validated
 * against the plan store (the plan exists and is offered in that county and
 * year), committed, and answered with an id and a one-time-shown access
 * token; reading it back needs that token. Only a SHA-256 hash of the token
 * is stored.
 */

/** The attestation wording; its version is stored with each application. */
export const ENROLLMENT_ATTESTATION = {
  version: "2025-11-01",
  text:
    "I confirm that the information in this application is true and complete to the best of my knowledge. I understand " +
    "that this is a request for help enrolling, not an enrollment: the Marketplace decides eligibility and the insurer " +
    "confirms coverage.",
} as const;

export const ENROLLMENT_STATUSES = ["received"] as const;

export const EnrollmentApplicationInput = z
  .object({
    plan_id: z
      .string({ error: "Give the plan id." })
      .regex(paddedWith(/^\d{5}[A-Z]{2}\d{7}(-\d{2})?$/), {
        error: "A plan id looks like 12345NY0010001 (14 characters, optionally with a -01 variant).",
      })
      // The pattern above holds the trimmed id (a second pattern here would be read as raw).
      .trim(),
    year: Year,
    place: Place,
    household: Household,
    income: z.number({ error: "Give the expected yearly household income in dollars." }).min(0).max(100_000_000),
    contact: z
      .object({
        first_name: z
          .string()
          .regex(NOT_BLANK, { error: "Enter a first name." })
          .max(80)
          .trim()
          .min(1, { error: "Enter a first name." })
          .max(80),
        last_name: z
          .string()
          .regex(NOT_BLANK, { error: "Enter a last name." })
          .max(80)
          .trim()
          .min(1, { error: "Enter a last name." })
          .max(80),
        email: emailField,
        phone: z
          .string()
          .regex(PHONE_OR_NOTHING_AS_SENT, { error: "Enter a 10-digit US phone number." })
          .trim()
          .transform((v) => v.replace(/[\s().+-]/g, "").replace(/^1(\d{10})$/, "$1"))
          .pipe(z.string().regex(/^$|^[2-9]\d{9}$/, { error: "Enter a 10-digit US phone number." }))
          .optional()
          .transform((v) => (v ? v : null)),
        preferred_language: z.string().regex(AT_LEAST_TWO).max(35).trim().min(2).max(35).optional().nullable(),
      })
      .strict(),
    attestation: z
      .object({
        agreed: z.literal(true, { error: "The applicant must agree to the attestation." }),
        version: z.literal(ENROLLMENT_ATTESTATION.version, {
          error: `The attestation wording has changed; show the current statement (version ${ENROLLMENT_ATTESTATION.version}).`,
        }),
        signature: z
          .string()
          .regex(AT_LEAST_TWO, { error: "Type the applicant's full name as a signature." })
          .max(160)
          .trim()
          .min(2, { error: "Type the applicant's full name as a signature." })
          .max(160),
      })
      .strict(),
  })
  .strict();
export type EnrollmentApplicationInput = z.infer<typeof EnrollmentApplicationInput>;

/** What the plan store must answer; production passes planStore(). */
export interface PlanOfferLookup {
  isPlanOfferedIn(query: {
    planId: string;
    year: number;
    state: string;
    countyFips: string;
    zip: string;
  }): boolean | Promise<boolean>;
}

export interface CreatedApplication {
  application_id: string;
  status: "received";
  access_token: string;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Validate against the plan store, commit, and return the id with a new access token. */
export async function createEnrollmentApplication(
  input: EnrollmentApplicationInput,
  options: {
    plans: PlanOfferLookup;
    ip: string;
    now?: number;
    /** The request's idempotency key (decision 495): sent again, it answers with the first application. */
    idempotencyKey?: string;
  },
): Promise<CreatedApplication & { replayed: boolean }> {
  // Fail before the plan check if nothing could be saved.
  await openWriteStore();
  let offered: boolean;
  try {
    offered = await options.plans.isPlanOfferedIn({
      planId: input.plan_id,
      year: input.year,
      state: input.place.state,
      countyFips: input.place.county_fips,
      zip: input.place.zip,
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(
      503,
      "plan_store_unavailable",
      "Plans cannot be checked right now, so the application was not saved. Please try again shortly.",
    );
  }
  if (!offered) {
    const message = `Plan ${input.plan_id} is not offered in county ${input.place.county_fips} (${input.place.state}) for ${input.year}.`;
    throw new ApiError(400, "validation_failed", message, { plan_id: message });
  }
  const now = options.now ?? Date.now();
  const id = newSubmissionId();
  const key = options.idempotencyKey;
  const accessToken = key === undefined ? randomBytes(32).toString("base64url") : accessTokenFromKey(key, id);
  const claim = idempotencyClaim("enrollment_application", key, input, id, now);
  const outcome = await withWriteStore((store) =>
    store.addEnrollmentApplication(
      {
        id,
        status: "received",
        accessTokenHash: hashToken(accessToken),
        planId: input.plan_id,
        planYear: input.year,
        state: input.place.state,
        countyFips: input.place.county_fips,
        zip: input.place.zip,
        household: JSON.stringify(input.household),
        annualIncome: Math.round(input.income * 100),
        contact: JSON.stringify(input.contact),
        emailKey: emailKey(input.contact.email),
        attestationVersion: input.attestation.version,
        attestedAt: now,
        attestationIp: options.ip,
        createdAt: now,
        updatedAt: now,
      },
      claim,
    ),
  );
  const record = recordOf(outcome, claim, id);
  if (record.replayed) {
    // The same key and the same application: the first answer again, its token derived alike.
    return {
      application_id: record.id,
      status: "received",
      access_token: accessTokenFromKey(key!, record.id),
      replayed: true,
    };
  }
  captureServerEvent(id, "enrollment_application_received", {
    plan_year: input.year,
    state: input.place.state,
    household_people: input.household.people.length,
  });
  return { application_id: id, status: "received", access_token: accessToken, replayed: false };
}

export interface ApplicationView {
  application_id: string;
  status: string;
  submitted_at: string;
  plan_id: string;
  year: number;
  place: { state: string; county_fips: string; zip: string };
  household: unknown;
  income: number;
  contact: unknown;
  attestation: { version: string; attested_at: string };
}

/** The bearer token from `Authorization: Bearer <token>`, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+([\w-]{10,200})\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Read an application with its access token: 401 without a token, 404 for an
 * unknown id, 403 when the token is not this application's.
 */
export async function readEnrollmentApplication(id: string, token: string | null): Promise<ApplicationView> {
  if (!token) {
    throw new ApiError(
      401,
      "access_token_required",
      "Send the application's access token as 'Authorization: Bearer <access_token>'.",
      undefined,
      {
        "www-authenticate": 'Bearer realm="enrollment-applications"',
      },
    );
  }
  if (!/^[0-9a-f]{24}$/.test(id)) throw new ApiError(404, "not_found", "No application has that id.");
  const row = await withWriteStore((store) => store.enrollmentApplication(id));
  if (!row) throw new ApiError(404, "not_found", "No application has that id.");
  const given = Buffer.from(hashToken(token), "hex");
  const expected = Buffer.from(row.accessTokenHash, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(403, "access_denied", "That access token does not open this application.");
  }
  return {
    application_id: row.id,
    status: row.status,
    submitted_at: new Date(row.createdAt).toISOString(),
    plan_id: row.planId,
    year: row.planYear,
    place: { state: row.state, county_fips: row.countyFips, zip: row.zip },
    household: JSON.parse(row.household),
    income: row.annualIncome / 100,
    contact: JSON.parse(row.contact),
    attestation: { version: row.attestationVersion, attested_at: new Date(row.attestedAt).toISOString() },
  };
}
