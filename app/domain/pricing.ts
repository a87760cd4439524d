// Net premium after the premium tax credit, and the one money-rounding helper.
//
// The credit applied to a plan cannot exceed the plan's essential-health-benefit premium
// (26 USC 36B(b)(2)(A); 26 CFR 1.36B-3(j)) and never pays a tobacco surcharge (the benchmark
// excludes it; KFF calculator FAQ). Amounts stay in full precision until roundCents at the edge.

function assertAmount(name: string, x: number): void {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`${name} must be a finite amount ≥ 0, got ${x}`);
}

/** Rounds dollars to cents, half away from zero (1.005 → 1.01, −1.005 → −1.01); use once, at the edge. */
export function roundCents(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`cannot round ${x} to cents`);
  const scaled = Math.abs(x) * 100;
  // The result is Math.round(scaled rounded to 15 significant digits): toPrecision(15) strips binary
  // noise (1.005 * 100 = 100.49999999999999) before rounding. That rounding moves `scaled` by less than
  // 1e-14 × scaled, so it can change Math.round's answer only when `scaled` lies that close to a
  // half-cent; everywhere else Math.round(scaled) is the same number without the string work (a third of
  // the pricing time of a 478-plan list; docs/decisions/117). Near a half-cent the string route decides.
  const fromHalf = scaled - Math.floor(scaled) - 0.5;
  const noise = scaled * 2e-14;
  const cents = fromHalf > noise || fromHalf < -noise ? Math.round(scaled) : Math.round(Number(scaled.toPrecision(15)));
  if (cents === 0) return 0;
  return (Math.sign(x) * cents) / 100;
}

/**
 * Credit actually applied to a plan: min(aptc, (premium − tobacco surcharge) × EHB share).
 * `premium` is the plan's monthly household premium including any tobacco surcharge.
 */
export function appliedCredit(premium: number, aptc: number, ehbShare = 1, tobaccoSurcharge = 0): number {
  assertAmount("premium", premium);
  assertAmount("aptc", aptc);
  assertAmount("tobacco surcharge", tobaccoSurcharge);
  if (!(ehbShare > 0 && ehbShare <= 1)) throw new RangeError(`EHB share must be in (0, 1], got ${ehbShare}`);
  if (tobaccoSurcharge > premium) throw new RangeError("tobacco surcharge cannot exceed the premium");
  return Math.min(aptc, (premium - tobaccoSurcharge) * ehbShare);
}

/** Monthly premium after the credit: max(0, premium − min(aptc, (premium − tobacco surcharge) × EHB share)). */
export function netPremium(premium: number, aptc: number, ehbShare = 1, tobaccoSurcharge = 0): number {
  return Math.max(0, premium - appliedCredit(premium, aptc, ehbShare, tobaccoSurcharge));
}

// ---------------------------------------------------------------------------
// A plan's premium after the credit, as the plan list shows it (to the cent).

/** The prices of a plan for a household that the credit rules read (see ./household-price.ts). */
export interface PriceBeforeCredit {
  premium: number;
  tobaccoSurcharge: number;
}

/** The essential-health-benefit part of a premium without tobacco: what a benchmark is built from (26 CFR 1.36B-3(j)). */
export function ehbPremium(premiumWithoutTobacco: number, ehbShare: number): number {
  return roundCents(premiumWithoutTobacco * ehbShare);
}

/**
 * A plan's monthly premium after the credit: never below zero, never paying tobacco surcharges.
 * `stateMonthly` is a state's own help after the federal credit (../state-programs; 0 today).
 */
export function premiumAfterCredit(
  price: PriceBeforeCredit,
  aptc: number,
  ehbShare: number,
  stateMonthly = 0,
): { premiumWithCredit: number; creditApplied: number } {
  const premiumWithCredit = premiumWithCreditOf(price, aptc, ehbShare, stateMonthly);
  return { premiumWithCredit, creditApplied: creditShown(price, premiumWithCredit) };
}

/**
 * The premium after credit alone, rounded to cents (premiumAfterCredit without an object per plan):
 * max(0, premium − federal credit applied − state help) (docs/decisions/315).
 */
export function premiumWithCreditOf(
  price: PriceBeforeCredit,
  aptc: number,
  ehbShare: number,
  stateMonthly = 0,
): number {
  const afterFederal = netPremium(price.premium, aptc, ehbShare, price.tobaccoSurcharge);
  if (stateMonthly === 0) return roundCents(afterFederal);
  assertAmount("state subsidy", stateMonthly);
  return roundCents(Math.max(0, afterFederal - stateMonthly));
}

/**
 * The credit shown is the difference, so premium = premium_w_credit + credit_applied to the cent
 * (rounding each on its own can disagree by a cent when the credit ends in half a cent;
 * docs/decisions/094-credit-applied-is-the-difference.md).
 */
export function creditShown(price: Pick<PriceBeforeCredit, "premium">, premiumWithCredit: number): number {
  return roundCents(price.premium - premiumWithCredit);
}

/** The monthly credit a plan can be bought with: none on a catastrophic plan (26 CFR 1.36B-2(a); 45 CFR 155.305(h)). */
export function creditUsableOn(metalLevel: string, aptc: number): number {
  return metalLevel === "Catastrophic" ? 0 : aptc;
}
