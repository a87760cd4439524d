/**
 * Plan ID Crosswalk PUF (plan-id-crosswalk-puf.csv): for every plan of the
 * previous plan year and every county (or ZIP) it was sold in, the plan of the
 * current year its enrollees are re-enrolled into when they do not choose
 * (puf-formats.md §8; CMS "Plan ID Crosswalk PUF" data dictionary, decision 340).
 *
 * Columns carry the two years in their names (`PlanID_2026`, `PlanID_2027`,
 * `IssuerID_AgeOff2027` …); the reader finds the years from the header, so the
 * PY2016 (21 columns) and PY2026 (24 columns) layouts read alike. Every
 * column of the dictionary is read:
 * - `State`; `DentalPlan` (Y/N, Yes/No: dental rows are skipped like the
 *   other PUFs' stand-alone dental plans);
 * - `PlanID_<from>`, `IssuerID_<from>`, `MultistatePlan_<from>`,
 *   `MetalLevel_<from>`, `ChildAdultOnly_<from>`: the previous year's plan;
 * - `FIPSCode` (county), `ZipCode` (`00000` = the whole county);
 * - `CrosswalkLevel` 0–5 and `ReasonForCrosswalk` (codes, kept as numbers;
 *   app/domain/renewal/crosswalk-words.ts says them in words);
 * - `PlanID_<to>` … `ChildAdultOnly_<to>`: the plan it maps to
 *   (`00000XX0000000` and `X` = no plan);
 * - `AgeOffPlanID_<to>` …: where enrollees ageing off a child-only plan go;
 * - PY2026 on: `ReasonForBronzeToSilverCrosswalk`, `SilverCSREligPlanID_<to>`,
 *   `SilverCSREligIssuerID_<to>`: the silver plan a CSR-eligible bronze
 *   enrollee is re-enrolled into.
 */
import { STANDARD_COMPONENT_ID, VARIANT_ID, cleanText, padCode } from "../../db/plan-store-values";
import type { HeaderMap } from "./csv";
import { column, reject, row, skip, type CsvFormat, type Parsed } from "./types";

export type CrosswalkRecord = {
  fromYear: number;
  toYear: number;
  state: string;
  fromPlanId: string;
  fromIssuerId: string | null;
  fromMultistate: boolean | null;
  fromMetal: string | null;
  fromChildAdultOnly: number | null;
  countyFips: string;
  /** null = the whole county (`00000`). */
  zip: string | null;
  level: number;
  reason: number | null;
  toPlanId: string | null;
  toIssuerId: string | null;
  toMultistate: boolean | null;
  toMetal: string | null;
  toChildAdultOnly: number | null;
  ageOffPlanId: string | null;
  ageOffIssuerId: string | null;
  ageOffMetal: string | null;
  bronzeToSilverReason: number | null;
  silverCsrPlanId: string | null;
  silverCsrIssuerId: string | null;
};

/** The "no plan" id of the crosswalk files. */
export const NO_PLAN_ID = "00000XX0000000";

/** The two years in the header's `PlanID_<yyyy>` columns, previous first. */
export function crosswalkYears(header: HeaderMap): { from: number; to: number } | null {
  const years = new Set<number>();
  for (const name of header.names) {
    const m = /^\s*plan[\s_-]*id[\s_-]*([0-9]{4})\s*$/i.exec(name);
    if (m) years.add(Number(m[1]));
  }
  const sorted = [...years].sort((a, b) => a - b);
  if (sorted.length !== 2 || sorted[1] !== sorted[0] + 1) return null;
  return { from: sorted[0], to: sorted[1] };
}

function planIdOrNull(raw: string): string | null | "bad" {
  const t = raw.trim().toUpperCase();
  if (t === "" || t === "X" || t === "0" || t === NO_PLAN_ID) return null;
  const variant = VARIANT_ID.exec(t);
  const id = variant ? variant[1] : t;
  return STANDARD_COMPONENT_ID.test(id) ? id : "bad";
}

/** `0` and `X` stand for "no issuer" on the rows without a target plan. */
function issuerOrNull(raw: string): string | null {
  const t = raw.trim();
  if (t === "" || t === "0" || /^x$/i.test(t)) return null;
  return /^[0-9]+(\.0+)?$/.test(t) ? String(Math.trunc(Number(t))).padStart(5, "0") : t;
}

function yesNo(raw: string): boolean | null {
  const t = raw.trim().toLowerCase();
  if (t === "y" || t === "yes") return true;
  if (t === "n" || t === "no") return false;
  return null;
}

function metalOrNull(raw: string): string | null {
  const t = cleanText(raw);
  return t === null || /^x$/i.test(t) ? null : t;
}

function smallInt(raw: string): number | null | "bad" {
  const t = raw.trim();
  if (t === "" || /^x$/i.test(t)) return null;
  if (!/^[0-9]+(\.0+)?$/.test(t)) return "bad";
  return Math.trunc(Number(t));
}

export const crosswalkFormat: CsvFormat<CrosswalkRecord> = {
  name: "plan-id-crosswalk-puf",
  required: [["State"], ["FIPSCode"], ["CrosswalkLevel"], ["ReasonForCrosswalk"]],
  create(header) {
    const years = crosswalkYears(header);
    if (!years) throw new Error("not a plan-id-crosswalk-puf file: no PlanID_<year> columns of two consecutive years");
    const { from, to } = years;
    const c = (...n: string[]) => column(header, ...n);
    const f = {
      state: c("State", "StateCode"),
      dental: c("DentalPlan"),
      fromPlan: c(`PlanID_${from}`),
      fromIssuer: c(`IssuerID_${from}`),
      fromMultistate: c(`MultistatePlan_${from}`),
      fromMetal: c(`MetalLevel_${from}`),
      fromChildAdult: c(`ChildAdultOnly_${from}`),
      fips: c("FIPSCode"),
      zip: c("ZipCode"),
      level: c("CrosswalkLevel"),
      reason: c("ReasonForCrosswalk"),
      toPlan: c(`PlanID_${to}`),
      toIssuer: c(`IssuerID_${to}`),
      toMultistate: c(`MultistatePlan_${to}`),
      toMetal: c(`MetalLevel_${to}`),
      toChildAdult: c(`ChildAdultOnly_${to}`),
      ageOffPlan: c(`AgeOffPlanID_${to}`),
      ageOffIssuer: c(`IssuerID_AgeOff${to}`),
      ageOffMetal: c(`MetalLevel_AgeOff${to}`),
      bronzeToSilver: c("ReasonForBronzeToSilverCrosswalk"),
      silverPlan: c(`SilverCSREligPlanID_${to}`),
      silverIssuer: c(`SilverCSREligIssuerID_${to}`),
    };
    if (!header.has(`PlanID_${to}`) || !header.has(`PlanID_${from}`))
      throw new Error(`not a plan-id-crosswalk-puf file: missing PlanID_${from} or PlanID_${to}`);
    return (fields): Parsed<CrosswalkRecord> => {
      if (yesNo(f.dental(fields)) === true) return skip("dental plan row");
      const fromPlanId = planIdOrNull(f.fromPlan(fields));
      if (fromPlanId === null || fromPlanId === "bad") return reject(`malformed PlanID_${from}`);
      const toPlanId = planIdOrNull(f.toPlan(fields));
      if (toPlanId === "bad") return reject(`malformed PlanID_${to}`);
      const ageOffPlanId = planIdOrNull(f.ageOffPlan(fields));
      const silverCsrPlanId = planIdOrNull(f.silverPlan(fields));
      const countyFips = padCode(f.fips(fields), 5);
      if (!countyFips || !/^[0-9]{5}$/.test(countyFips)) return reject("malformed FIPSCode");
      const zipRaw = padCode(f.zip(fields), 5);
      if (zipRaw !== null && !/^[0-9]{5}$/.test(zipRaw)) return reject("malformed ZipCode");
      const level = smallInt(f.level(fields));
      if (level === null || level === "bad" || level > 5) return reject("malformed CrosswalkLevel (expected 0-5)");
      const reason = smallInt(f.reason(fields));
      if (reason === "bad") return reject("malformed ReasonForCrosswalk");
      const fromChild = smallInt(f.fromChildAdult(fields));
      const toChild = smallInt(f.toChildAdult(fields));
      const b2s = smallInt(f.bronzeToSilver(fields));
      const state = (cleanText(f.state(fields)) ?? fromPlanId.slice(5, 7)).toUpperCase();
      return row({
        fromYear: from,
        toYear: to,
        state,
        fromPlanId,
        fromIssuerId: issuerOrNull(f.fromIssuer(fields)) ?? fromPlanId.slice(0, 5),
        fromMultistate: yesNo(f.fromMultistate(fields)),
        fromMetal: metalOrNull(f.fromMetal(fields)),
        fromChildAdultOnly: fromChild === "bad" ? null : fromChild,
        countyFips,
        zip: zipRaw === null || zipRaw === "00000" ? null : zipRaw,
        level,
        reason,
        toPlanId,
        toIssuerId: toPlanId ? (issuerOrNull(f.toIssuer(fields)) ?? toPlanId.slice(0, 5)) : null,
        toMultistate: toPlanId ? yesNo(f.toMultistate(fields)) : null,
        toMetal: toPlanId ? metalOrNull(f.toMetal(fields)) : null,
        toChildAdultOnly: toPlanId && toChild !== "bad" ? toChild : null,
        ageOffPlanId: ageOffPlanId === "bad" ? null : ageOffPlanId,
        ageOffIssuerId: ageOffPlanId && ageOffPlanId !== "bad" ? issuerOrNull(f.ageOffIssuer(fields)) : null,
        ageOffMetal: ageOffPlanId && ageOffPlanId !== "bad" ? metalOrNull(f.ageOffMetal(fields)) : null,
        bronzeToSilverReason: b2s === "bad" ? null : b2s,
        silverCsrPlanId: silverCsrPlanId === "bad" ? null : silverCsrPlanId,
        silverCsrIssuerId: silverCsrPlanId && silverCsrPlanId !== "bad" ? issuerOrNull(f.silverIssuer(fields)) : null,
      });
    };
  },
};
