/**
 * Quality PUF (quality-puf.csv), the QRS star ratings per 14-character plan
 * id. Values are 1–5 or "NR - …" (not rated). puf-formats.md §8.
 */
import { STANDARD_COMPONENT_ID, VARIANT_ID, cleanText } from "../../db/plan-store-values";
import { column, reject, row, yearCheck, type CsvFormat, type Parsed } from "./types";

export type QualityRecord = {
  planYear: number;
  planId: string;
  issuerId: string | null;
  state: string | null;
  reportingUnitId: string | null;
  overall: number | null;
  overallRaw: string | null;
  medicalCare: number | null;
  medicalCareRaw: string | null;
  memberExperience: number | null;
  memberExperienceRaw: string | null;
  planAdministration: number | null;
  planAdministrationRaw: string | null;
};

/** 1–5 → the number; "NR …" or empty → null; anything else is malformed. */
export function parseStarRating(raw: string): number | null | "bad" {
  const t = raw.trim();
  if (t === "" || /^nr\b/i.test(t) || /^not rated/i.test(t)) return null;
  const m = /^([1-5])(\.0+)?$/.exec(t);
  return m ? Number(m[1]) : "bad";
}

export const qualityFormat: CsvFormat<QualityRecord> = {
  name: "quality-puf",
  required: [["PlanID"], ["OverallRatingValue"]],
  create(header, options) {
    const c = (...n: string[]) => column(header, ...n);
    const year = yearCheck(header, options);
    const businessYear = c("BusinessYear", "PlanYear");
    const f = {
      issuerId: c("IssuerID", "IssuerId"),
      state: c("State", "StateCode"),
      unit: c("Reportingunitid", "ReportingUnitId"),
      planId: c("PlanID", "PlanId"),
      overall: c("OverallRatingValue"),
      medical: c("MedicalCareRatingValue"),
      member: c("MemberExperienceRatingValue"),
      admin: c("PlanAdministrationRatingValue"),
    };
    return (fields): Parsed<QualityRecord> => {
      const wrongYear = year(fields);
      if (wrongYear) return wrongYear;
      let planId = f.planId(fields).toUpperCase();
      const variant = VARIANT_ID.exec(planId);
      if (variant) planId = variant[1];
      if (!STANDARD_COMPONENT_ID.test(planId)) return reject("malformed PlanID");
      const raws = [f.overall(fields), f.medical(fields), f.member(fields), f.admin(fields)];
      const values = raws.map(parseStarRating);
      if (values.includes("bad")) return reject("malformed rating value (expected 1-5 or NR)");
      const [overall, medicalCare, memberExperience, planAdministration] = values as Array<number | null>;
      const yearText = businessYear(fields);
      const planYear = options.year ?? (/^[0-9]{4}$/.test(yearText) ? Number(yearText) : NaN);
      if (!Number.isFinite(planYear)) return reject("plan year unknown (no BusinessYear column and no --year)");
      return row({
        planYear,
        planId,
        issuerId: cleanText(f.issuerId(fields)) ?? planId.slice(0, 5),
        state: cleanText(f.state(fields))?.toUpperCase() ?? planId.slice(5, 7),
        reportingUnitId: cleanText(f.unit(fields)),
        overall,
        overallRaw: cleanText(raws[0]),
        medicalCare,
        medicalCareRaw: cleanText(raws[1]),
        memberExperience,
        memberExperienceRaw: cleanText(raws[2]),
        planAdministration,
        planAdministrationRaw: cleanText(raws[3]),
      });
    };
  },
};
