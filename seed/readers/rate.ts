/**
 * Rate PUF (rate-puf.csv): plan × rating area × age × effective date; each row
 * holds the non-tobacco and tobacco rate, or family-tier premiums on a
 * "Family Option" row. Formats: puf-formats.md §4.
 *
 * Issuers fill combinations they do not sell with sentinel rates (9999,
 * 9999.99, 999999): a rate of 9999 or more is skipped as a placeholder
 * (docs/decisions/023-placeholder-rates.md).
 */
import {
  STANDARD_COMPONENT_ID,
  VARIANT_ID,
  parseDate,
  parseDecimal,
  parseRatingArea,
} from "../../db/plan-store-values";
import { column, reject, row, skip, yearCheck, type CsvFormat, type Parsed } from "./types";

export const PLACEHOLDER_RATE = 9999;

export type RateRecord = {
  planYear: number;
  state: string;
  issuerId: string;
  planId: string;
  ratingArea: number;
  ageBand: string;
  tobacco: "no_preference" | "tobacco_user_non_tobacco_user";
  individualRate: number;
  tobaccoRate: number | null;
  couple: number | null;
  primarySubscriberAndOneDependent: number | null;
  primarySubscriberAndTwoDependents: number | null;
  primarySubscriberAndThreeOrMoreDependents: number | null;
  coupleAndOneDependent: number | null;
  coupleAndTwoDependents: number | null;
  coupleAndThreeOrMoreDependents: number | null;
  effectiveDate: string | null;
  expirationDate: string | null;
};

/** The Rate PUF's age label in its canonical spelling, or null when it is not one. */
export function normalizeAgeBand(raw: string): string | null {
  const t = raw.trim().toLowerCase().replace(/\s+/g, " ");
  if (t === "family option") return "Family Option";
  if (t === "0-14" || t === "0-20") return t;
  const over = /^(\d{2}) and over$/.exec(t);
  if (over) return `${over[1]} and over`;
  if (/^\d{1,2}$/.test(t)) return String(Number(t));
  return null;
}

export const rateFormat: CsvFormat<RateRecord> = {
  name: "rate-puf",
  required: [["PlanId"], ["RatingAreaId"], ["Age"], ["IndividualRate"]],
  create(header, options) {
    const c = (...n: string[]) => column(header, ...n);
    const year = yearCheck(header, options);
    const businessYear = c("BusinessYear");
    const f = {
      state: c("StateCode"),
      issuerId: c("IssuerId"),
      planId: c("PlanId"),
      area: c("RatingAreaId"),
      tobacco: c("Tobacco"),
      age: c("Age"),
      individual: c("IndividualRate"),
      tobaccoRate: c("IndividualTobaccoRate"),
      couple: c("Couple"),
      p1: c("PrimarySubscriberAndOneDependent"),
      p2: c("PrimarySubscriberAndTwoDependents"),
      p3: c("PrimarySubscriberAndThreeOrMoreDependents"),
      c1: c("CoupleAndOneDependent"),
      c2: c("CoupleAndTwoDependents"),
      c3: c("CoupleAndThreeOrMoreDependents"),
      effective: c("RateEffectiveDate"),
      expiration: c("RateExpirationDate"),
    };
    // Family-tier amounts: empty or a placeholder means "not offered".
    const tier = (v: string): number | null | "bad" => {
      if (v === "") return null;
      const n = parseDecimal(v);
      if (n === null) return "bad";
      return n >= PLACEHOLDER_RATE || n <= 0 ? null : n;
    };
    return (fields): Parsed<RateRecord> => {
      const wrongYear = year(fields);
      if (wrongYear) return wrongYear;
      let planId = f.planId(fields).toUpperCase();
      // The Rate PUF names the standard component; a variant id is read as its plan.
      const variant = VARIANT_ID.exec(planId);
      if (variant) planId = variant[1];
      if (!STANDARD_COMPONENT_ID.test(planId)) return reject("malformed PlanId");
      const ratingArea = parseRatingArea(f.area(fields));
      if (ratingArea === null) return reject("malformed RatingAreaId");
      const ageBand = normalizeAgeBand(f.age(fields));
      if (ageBand === null) return reject("malformed Age");
      const tobaccoText = f.tobacco(fields).toLowerCase();
      let tobacco: RateRecord["tobacco"];
      if (tobaccoText === "" || tobaccoText === "no preference") tobacco = "no_preference";
      else if (tobaccoText.includes("tobacco user")) tobacco = "tobacco_user_non_tobacco_user";
      else return reject("unknown Tobacco value");
      const individual = parseDecimal(f.individual(fields));
      if (individual === null) return reject("malformed IndividualRate");
      if (individual >= PLACEHOLDER_RATE) return skip("placeholder rate (9999 or more)");
      if (individual <= 0) return reject("IndividualRate not positive");
      const tobaccoRaw = f.tobaccoRate(fields);
      let tobaccoRate: number | null = null;
      if (tobaccoRaw !== "") {
        const n = parseDecimal(tobaccoRaw);
        if (n === null) return reject("malformed IndividualTobaccoRate");
        tobaccoRate = n >= PLACEHOLDER_RATE || n <= 0 ? null : n;
      }
      const tiers = [f.couple, f.p1, f.p2, f.p3, f.c1, f.c2, f.c3].map((g) => tier(g(fields)));
      if (tiers.includes("bad")) return reject("malformed family-tier rate");
      const [couple, p1, p2, p3, c1, c2, c3] = tiers as Array<number | null>;
      const yearText = businessYear(fields);
      const planYear = options.year ?? (/^[0-9]{4}$/.test(yearText) ? Number(yearText) : NaN);
      if (!Number.isFinite(planYear)) return reject("malformed BusinessYear");
      return row({
        planYear,
        state: f.state(fields).toUpperCase() || planId.slice(5, 7),
        issuerId: f.issuerId(fields) || planId.slice(0, 5),
        planId,
        ratingArea,
        ageBand,
        tobacco,
        individualRate: individual,
        tobaccoRate,
        couple,
        primarySubscriberAndOneDependent: p1,
        primarySubscriberAndTwoDependents: p2,
        primarySubscriberAndThreeOrMoreDependents: p3,
        coupleAndOneDependent: c1,
        coupleAndTwoDependents: c2,
        coupleAndThreeOrMoreDependents: c3,
        effectiveDate: parseDate(f.effective(fields)),
        expirationDate: parseDate(f.expiration(fields)),
      });
    };
  },
};
