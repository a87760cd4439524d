import { z } from "zod";
import { AT_LEAST_THREE } from "../../schemas/text-as-sent";

/**
 * Request bodies of the drug and doctor routes (docs/api.md, "Drugs and
 * doctors"). Caps keep one request's upstream fan-out and merging bounded:
 * 100 plan ids are 10 upstream calls per code list, run under the
 * concurrency cap.
 */

export const MIN_QUERY_LENGTH = 3;
export const MAX_QUERY_LENGTH = 100;
export const MAX_CODES_PER_REQUEST = 20;
export const MAX_PLAN_IDS_PER_REQUEST = 500;
/**
 * The coverage routes take at most 100 plan ids (issue 30 item 6, docs/decisions/375): 20 drugs
 * × 100 plans is 2,000 pairs, whose merging and answer (200 KB) cost the event loop a few ms;
 * 24 such requests at once leave /api/health under 100 ms. More plans: several requests.
 */
export const MAX_PLAN_IDS_PER_COVERAGE_REQUEST = 100;

const query = z
  .string({ error: "Send the typed text as a string." })
  // Checked on the text as sent, so the document's pattern says what trim + min(3) do: a first and a last non-space with something between.
  .regex(AT_LEAST_THREE, `Type at least ${MIN_QUERY_LENGTH} characters.`)
  .max(MAX_QUERY_LENGTH, `Use at most ${MAX_QUERY_LENGTH} characters.`)
  .trim()
  .min(MIN_QUERY_LENGTH, `Type at least ${MIN_QUERY_LENGTH} characters.`)
  .max(MAX_QUERY_LENGTH, `Use at most ${MAX_QUERY_LENGTH} characters.`);

const year = z
  .number({ error: "Send the plan year as a number, e.g. 2027." })
  .int("Send the plan year as a whole number.")
  .min(2014, "Plan years start in 2014.")
  .max(2100, "That plan year is too far ahead.")
  .optional();

/** The coverage routes' plan ids: 1 to MAX_PLAN_IDS_PER_COVERAGE_REQUEST 14-character HIOS ids. */
const coveragePlanIds = z
  .array(z.string().regex(/^\d{5}[A-Z]{2}\d{7}$/, "A plan id has 14 characters, e.g. 11111TX0010001."), {
    error: "Send plan_ids as a list of plan ids.",
  })
  .min(1, "Send at least one plan id.")
  .max(
    MAX_PLAN_IDS_PER_COVERAGE_REQUEST,
    `Send at most ${MAX_PLAN_IDS_PER_COVERAGE_REQUEST} plan ids; check more plans in several requests.`,
  );

export const DrugAutocompleteBody = z.object({ query, year });

export const ProviderAutocompleteBody = z.object({
  query,
  zip: z
    .string({ error: "Send the 5-digit ZIP code." })
    // Exactly five digits, spaces refused: the schema's pattern is the rule (decision 380).
    .regex(/^\d{5}$/, "Send the 5-digit ZIP code."),
  year,
  offset: z
    .number({ error: "Send the offset as a number, e.g. 25." })
    .int("Send the offset as a whole number.")
    .min(0, "The offset cannot be negative.")
    .max(10_000, "Use an offset of at most 10,000.")
    .optional()
    .describe(
      "Doctors and facilities to skip: upstream's provider search answers 25 a page (paging.total counts all); groups are on the first page only",
    ),
});

export const DrugCoveredBody = z.object({
  rxcuis: z
    .array(z.string().regex(/^\d{1,10}$/, "An RxCUI is a number of up to 10 digits, sent as a string."), {
      error: "Send rxcuis as a list of RxCUI strings.",
    })
    .min(1, "Send at least one RxCUI.")
    .max(MAX_CODES_PER_REQUEST, `Send at most ${MAX_CODES_PER_REQUEST} drugs.`),
  plan_ids: coveragePlanIds,
  year,
});

export const ProviderCoveredBody = z.object({
  npis: z
    .array(z.string().regex(/^\d{10}$/, "An NPI has 10 digits, sent as a string."), {
      error: "Send npis as a list of NPI strings.",
    })
    .min(1, "Send at least one NPI.")
    .max(MAX_CODES_PER_REQUEST, `Send at most ${MAX_CODES_PER_REQUEST} providers.`),
  plan_ids: coveragePlanIds,
  year,
});
