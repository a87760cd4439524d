// Cost-sharing reductions (45 CFR 155.305(g); AV 45 CFR 156.420(a)): the silver plan variant a
// household with a low enough income gets, named by its actuarial value.

/** A CSR level: the silver variant with 94 %, 87 % or 73 % actuarial value. "No CSR" is null where it can occur. */
export type CsrLevel = "94" | "87" | "73";

/** Every CSR level, highest actuarial value first (the schemas' enum is built from it). */
export const CSR_LEVELS = ["94", "87", "73"] as const satisfies readonly CsrLevel[];

/** The CSR variant a household is priced on: its CSR level on a silver plan, none on any other metal. */
export function csrVariantFor(metalLevel: string, householdCsr: CsrLevel | null): CsrLevel | null {
  return metalLevel === "Silver" && householdCsr ? householdCsr : null;
}
