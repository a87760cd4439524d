/**
 * Drugs for the formulary files. The sample uses real RxNorm concept ids
 * (RxCUIs) of common drugs, with their RxNorm clinical-drug names, so the
 * service's gap-filling of upstream coverage answers can be tried with codes
 * the upstream API knows. National scale adds made-up RxCUIs (9 000 001 and
 * up, far above any RxNorm id in use) to reach its row count.
 */
import type { Drug, DrugClass } from "./model";

const d = (rxcui: string, name: string, cls: DrugClass): Drug => ({ rxcui, name, cls, real: true });

/** Common drugs, RxNorm SCD/SBD ids. */
export const REAL_DRUGS: readonly Drug[] = [
  d("314076", "lisinopril 10 MG Oral Tablet", "generic"),
  d("314077", "lisinopril 20 MG Oral Tablet", "generic"),
  d("197361", "amlodipine 5 MG Oral Tablet", "generic"),
  d("308136", "amlodipine 2.5 MG Oral Tablet", "generic"),
  d("310798", "hydrochlorothiazide 25 MG Oral Tablet", "generic"),
  d("979492", "losartan potassium 50 MG Oral Tablet", "generic"),
  d("866414", "24 HR metoprolol succinate 100 MG Extended Release Oral Tablet", "generic"),
  d("313988", "furosemide 40 MG Oral Tablet", "generic"),
  d("861007", "metformin hydrochloride 500 MG Oral Tablet", "generic"),
  d("860975", "24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet", "generic"),
  d("617310", "atorvastatin 20 MG Oral Tablet", "preventive"),
  d("259255", "atorvastatin 80 MG Oral Tablet", "preventive"),
  d("617318", "atorvastatin 20 MG Oral Tablet [Lipitor]", "brand"),
  d("312961", "simvastatin 20 MG Oral Tablet", "preventive"),
  d("314231", "simvastatin 10 MG Oral Tablet", "preventive"),
  d("312940", "sertraline 50 MG Oral Tablet", "generic"),
  d("310431", "gabapentin 300 MG Oral Capsule", "generic"),
  d("309362", "clopidogrel 75 MG Oral Tablet", "generic"),
  d("243670", "aspirin 81 MG Oral Tablet", "preventive"),
  d("313782", "acetaminophen 325 MG Oral Tablet", "generic"),
  d("209459", "acetaminophen 500 MG Oral Tablet [Tylenol]", "brand"),
  d("308192", "amoxicillin 500 MG Oral Tablet", "generic"),
  d("105585", "methotrexate 2.5 MG Oral Tablet", "generic"),
  d("745679", "200 ACTUAT albuterol 0.09 MG/ACTUAT Metered Dose Inhaler", "brand"),
  d("895994", "120 ACTUAT fluticasone propionate 0.044 MG/ACTUAT Metered Dose Inhaler", "brand"),
  d("1373463", "canagliflozin 100 MG Oral Tablet", "brand"),
  d("897122", "3 ML liraglutide 6 MG/ML Pen Injector", "specialty"),
  d("1664463", "24 HR tacrolimus 1 MG Extended Release Oral Tablet", "specialty"),
  // Added last so that every earlier drug keeps its place in the generated files.
  d("861004", "metformin hydrochloride 1000 MG Oral Tablet", "generic"),
];

const FORMS = [
  "Oral Tablet",
  "Oral Capsule",
  "Extended Release Oral Tablet",
  "Oral Solution",
  "Injectable Solution",
  "Topical Cream",
];
const STRENGTHS = ["2.5 MG", "5 MG", "10 MG", "20 MG", "25 MG", "40 MG", "50 MG", "100 MG", "250 MG", "500 MG"];

/** `count` made-up drugs; names say so. */
export function syntheticDrugs(count: number): Drug[] {
  const out: Drug[] = [];
  for (let i = 0; i < count; i++) {
    const cls: DrugClass = i % 10 < 6 ? "generic" : i % 10 < 8 ? "brand" : i % 10 < 9 ? "preventive" : "specialty";
    out.push({
      rxcui: String(9_000_001 + i),
      name: `synthetic drug ${String(i + 1).padStart(4, "0")} ${STRENGTHS[i % STRENGTHS.length]} ${FORMS[Math.floor(i / STRENGTHS.length) % FORMS.length]}`,
      cls,
      real: false,
    });
  }
  return out;
}
