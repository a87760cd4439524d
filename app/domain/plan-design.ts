/**
 * Standardized plan designs: the PUF's DesignType names a standardized design
 * ("Design 1" … on HealthCare.gov, marketed as "Easy Pricing"; a state's own
 * standard designs likewise), or "Not Applicable" for the insurer's own design.
 */
export function isStandardizedDesign(designType: string | null | undefined): boolean {
  if (!designType) return false;
  const value = designType.trim().toLowerCase();
  return value !== "" && value !== "not applicable" && value !== "n/a" && value !== "none";
}

/** The label shown on cards and plan pages. */
export const STANDARDIZED_LABEL = "Standardized plan (Easy Pricing)";
export const STANDARDIZED_HINT =
  "Same deductible and copays as every other standardized plan of this metal level, so only premium, network and quality differ.";
