/**
 * The issuers' QHP machine-readable files (CMS schema, puf-formats.md §10):
 * plans.json (document links), drugs.json (formulary rows) and
 * providers.json (provider-network rows). Each array element may yield several
 * rows, one per plan entry; a "row" in the counts is one plan entry.
 */
import { STANDARD_COMPONENT_ID } from "../../db/plan-store-values";
import { normalizeUrl } from "./plan-attributes";
import { reject, row, skip, type Parsed, type ReaderOptions } from "./types";

export type JsonFormat<T> = {
  name: string;
  parse(element: unknown, options: ReaderOptions): Parsed<T>[];
};

export type MrPlanRecord = {
  planId: string;
  marketingName: string | null;
  summaryUrl: string | null;
  formularyUrl: string | null;
  marketingUrl: string | null;
};

export type FormularyRecord = {
  rxcui: string;
  /** The entry's `drug_name` (RxNorm-style), when given. */
  drugName: string | null;
  planId: string;
  drugTier: string | null;
  priorAuth: boolean | null;
  stepTherapy: boolean | null;
  quantityLimit: boolean | null;
};

export type ProviderNetworkRecord = { npi: string; planId: string; networkTier: string | null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function text(v: unknown): string | null {
  if (typeof v === "string") return v.trim() === "" ? null : v.trim();
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

function flag(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (t === "true" || t === "yes") return true;
    if (t === "false" || t === "no") return false;
  }
  return null;
}

/** Checks a plan entry's id, id type and `years`; returns the plan id or a skip/reject. */
function planEntry(entry: Record<string, unknown>, options: ReaderOptions): string | Parsed<never> {
  const type = text(entry.plan_id_type);
  if (type !== null && type.toUpperCase() !== "HIOS-PLAN-ID") return reject("unsupported plan_id_type");
  const planId = text(entry.plan_id)?.toUpperCase() ?? "";
  if (!STANDARD_COMPONENT_ID.test(planId)) return reject("malformed plan_id");
  const years = entry.years;
  if (options.year !== undefined && Array.isArray(years) && years.length > 0) {
    if (!years.some((y) => Number(y) === options.year)) return skip("other plan year");
  }
  return planId;
}

function planEntries(element: Record<string, unknown>): unknown[] | null {
  return Array.isArray(element.plans) ? element.plans : null;
}

export const mrPlansFormat: JsonFormat<MrPlanRecord> = {
  name: "qhp-plans-json",
  parse(element, options) {
    if (!isObject(element)) return [reject("plan entry is not an object")];
    const planId = planEntry(element, options);
    if (typeof planId !== "string") return [planId];
    return [
      row({
        planId,
        marketingName: text(element.marketing_name),
        summaryUrl: normalizeUrl(text(element.summary_url)),
        formularyUrl: normalizeUrl(text(element.formulary_url)),
        marketingUrl: normalizeUrl(text(element.marketing_url)),
      }),
    ];
  },
};

export const mrDrugsFormat: JsonFormat<FormularyRecord> = {
  name: "qhp-drugs-json",
  parse(element, options) {
    if (!isObject(element)) return [reject("drug entry is not an object")];
    const rxcui = text(element.rxnorm_id);
    if (rxcui === null || !/^[0-9]{1,10}$/.test(rxcui)) return [reject("malformed rxnorm_id")];
    const entries = planEntries(element);
    if (entries === null) return [reject("drug entry without plans")];
    return entries.map((entry): Parsed<FormularyRecord> => {
      if (!isObject(entry)) return reject("plan entry is not an object");
      const planId = planEntry(entry, options);
      if (typeof planId !== "string") return planId;
      return row({
        rxcui,
        drugName: text(element.drug_name),
        planId,
        drugTier: text(entry.drug_tier)?.toUpperCase() ?? null,
        priorAuth: flag(entry.prior_authorization),
        stepTherapy: flag(entry.step_therapy),
        quantityLimit: flag(entry.quantity_limit),
      });
    });
  },
};

export const mrProvidersFormat: JsonFormat<ProviderNetworkRecord> = {
  name: "qhp-providers-json",
  parse(element, options) {
    if (!isObject(element)) return [reject("provider entry is not an object")];
    if (element.npi === null || element.npi === undefined || element.npi === "") return [skip("provider without NPI")];
    const npi = text(element.npi);
    if (npi === null || !/^[0-9]{10}$/.test(npi)) return [reject("malformed npi (expected 10 digits)")];
    const entries = planEntries(element);
    if (entries === null) return [reject("provider entry without plans")];
    return entries.map((entry): Parsed<ProviderNetworkRecord> => {
      if (!isObject(entry)) return reject("plan entry is not an object");
      const planId = planEntry(entry, options);
      if (typeof planId !== "string") return planId;
      return row({ npi, planId, networkTier: text(entry.network_tier)?.toUpperCase() ?? null });
    });
  },
};
