/**
 * Plan designs: the deductible, MOOP and cost-sharing of every plan variant,
 * and the benefit rows of the Benefits and Cost Sharing PUF. Numbers are made
 * up but plausible for 2027: metal levels in the usual ranges, every MOOP
 * within the 2027 limit, and cost-sharing-reduction variants strictly richer
 * than the standard silver plan (73% < 87% < 94%, 45 CFR 156.420).
 */
import type { Metal, Plan, PlanKnobs } from "./model";
import type { Prng } from "./prng";
import { dollars, percent } from "./output";

export const CSR_VARIATION_TYPE: Record<string, (metal: Metal) => string> = {
  "00": (m) => `Standard ${m} Off Exchange Plan`,
  "01": (m) => `Standard ${m} On Exchange Plan`,
  "02": () => "Zero Cost Sharing Plan Variation",
  "03": () => "Limited Cost Sharing Plan Variation",
  "04": () => "73% AV Level Silver Plan",
  "05": () => "87% AV Level Silver Plan",
  "06": () => "94% AV Level Silver Plan",
};

const round50 = (x: number) => Math.round(x / 50) * 50;
const round5 = (x: number) => Math.round(x / 5) * 5;

/** Knobs for a standard (-01) design at a metal level, within `moopLimit`. */
export function drawKnobs(metal: Metal, rng: Prng, moopLimit: number): PlanKnobs {
  const k = (
    ded: [number, number],
    moop: [number, number],
    coins: number[],
    pcp: [number, number],
    av: [number, number],
  ) => {
    const deductible = round50(rng.range(ded[0], ded[1]));
    const moopValue = Math.min(moopLimit, Math.max(deductible + 500, round50(rng.range(moop[0], moop[1]))));
    const pcpCopay = round5(rng.range(pcp[0], pcp[1]));
    return {
      deductible,
      moop: moopValue,
      coinsurance: rng.pick(coins),
      pcpCopay,
      specialistCopay: round5(pcpCopay * rng.range(1.8, 2.4)),
      erCopay: round50(rng.range(350, 950)),
      genericCopay: round5(rng.range(5, 25)),
      brandCopay: round5(rng.range(40, 90)),
      av: rng.range(av[0], av[1]),
    };
  };
  switch (metal) {
    case "Bronze":
      return k([6500, 9200], [9800, moopLimit], [40, 50], [45, 75], [0.6, 0.624]);
    case "Expanded Bronze":
      return k([4800, 6500], [9400, 11600], [40, 45], [35, 50], [0.625, 0.648]);
    case "Silver":
      return k([3800, 6200], [8800, 10500], [30, 35, 40], [30, 45], [0.7, 0.719]);
    case "Gold":
      return k([900, 2600], [5800, 9000], [20, 25, 30], [15, 30], [0.78, 0.819]);
    case "Platinum":
      return k([0, 500], [2000, 4500], [10], [5, 15], [0.88, 0.919]);
    case "Catastrophic":
      return {
        deductible: moopLimit,
        moop: moopLimit,
        coinsurance: 0,
        pcpCopay: 0,
        specialistCopay: 0,
        erCopay: 0,
        genericCopay: 0,
        brandCopay: 0,
        av: rng.range(0.55, 0.59),
      };
    default:
      // Stand-alone dental (Low/High): small deductible, no medical MOOP of note.
      return {
        deductible: metal === "High" ? 50 : 75,
        moop: metal === "High" ? 350 : 400,
        coinsurance: metal === "High" ? 20 : 50,
        pcpCopay: 0,
        specialistCopay: 0,
        erCopay: 0,
        genericCopay: 0,
        brandCopay: 0,
        av: metal === "High" ? 0.85 : 0.7,
      };
  }
}

/** The cost sharing of one variant. */
export type VariantDesign = {
  suffix: string;
  deductible: number;
  /** Drug deductible when the plan keeps it separate from the medical one. */
  drugDeductible: number | null;
  moop: number;
  coinsurance: number;
  pcpCopay: number;
  specialistCopay: number;
  erCopay: number;
  genericCopay: number;
  brandCopay: number;
  /** Zero cost sharing (-02): everything "No Charge". */
  zero: boolean;
  av: number | null;
};

/** Limits on CSR variant MOOPs as fractions of the annual limit (45 CFR 156.420(a)): 73% → 4/5, 87% and 94% → 1/3. */
export function variantDesign(plan: Plan, suffix: string, moopLimit: number): VariantDesign {
  const b = plan.knobs;
  const drugDed = plan.separateDrugDeductible ? round50(Math.min(1000, b.deductible * 0.12)) : null;
  const same = (av: number | null): VariantDesign => ({
    suffix,
    deductible: b.deductible,
    drugDeductible: drugDed,
    moop: b.moop,
    coinsurance: b.coinsurance,
    pcpCopay: b.pcpCopay,
    specialistCopay: b.specialistCopay,
    erCopay: b.erCopay,
    genericCopay: b.genericCopay,
    brandCopay: b.brandCopay,
    zero: false,
    av,
  });
  const csr = (
    dedF: number,
    moopF: number,
    moopCap: number,
    coinsCut: number,
    copayF: number,
    av: number,
  ): VariantDesign => {
    const v = same(av);
    v.deductible = round50(b.deductible * dedF);
    v.drugDeductible = drugDed === null ? null : round50(drugDed * dedF);
    v.moop = Math.min(round50(b.moop * moopF), round50(moopCap));
    v.coinsurance = Math.max(5, b.coinsurance - coinsCut);
    v.pcpCopay = round5(b.pcpCopay * copayF);
    v.specialistCopay = round5(b.specialistCopay * copayF);
    v.erCopay = round50(b.erCopay * copayF);
    v.genericCopay = round5(b.genericCopay * copayF);
    v.brandCopay = round5(b.brandCopay * copayF);
    return v;
  };
  switch (suffix) {
    case "00":
    case "01":
      return same(b.av);
    case "03":
      return same(null);
    case "02":
      return {
        ...same(null),
        deductible: 0,
        drugDeductible: drugDed === null ? null : 0,
        moop: 0,
        coinsurance: 0,
        pcpCopay: 0,
        specialistCopay: 0,
        erCopay: 0,
        genericCopay: 0,
        brandCopay: 0,
        zero: true,
      };
    case "04":
      return csr(0.72, 0.8, moopLimit * 0.8, 5, 0.8, 0.73 + (b.av - 0.7) * 0.4);
    case "05":
      return csr(0.22, 0.32, moopLimit / 3, 15, 0.5, 0.87 + (b.av - 0.7) * 0.4);
    case "06":
      return csr(0.05, 0.18, moopLimit / 4, 25, 0.25, 0.94 + (b.av - 0.7) * 0.4);
    default:
      throw new Error(`unknown variant -${suffix}`);
  }
}

// ---------------------------------------------------------------------------
// Benefits and Cost Sharing PUF rows.

type Kind =
  | "office" // copay visit
  | "specialist"
  | "urgent"
  | "preventive" // no charge
  | "facility" // coinsurance after deductible
  | "inpatient" // copay per stay on rich plans, coinsurance otherwise
  | "er"
  | "generic"
  | "brand"
  | "nonpreferred"
  | "specialty"
  | "pediatricVision"
  | "notCovered"
  | "sometimes"; // covered by some plans only (chosen per plan)

type BenefitSpec = { name: string; kind: Kind; limit?: [string, string]; explanation?: string; ehbVar?: string };

/**
 * The benefit rows written for every medical plan variant (60 of them, so
 * each variant has more than the 40 the plan page needs). Every name is from
 * the PY2026 BenCS vocabulary (seed/reference/benefit-names.py2026-ffm.csv).
 */
export const BENEFITS: readonly BenefitSpec[] = [
  { name: "Primary Care Visit to Treat an Injury or Illness", kind: "office" },
  { name: "Specialist Visit", kind: "specialist" },
  { name: "Other Practitioner Office Visit (Nurse, Physician Assistant)", kind: "office" },
  { name: "Outpatient Facility Fee (e.g., Ambulatory Surgery Center)", kind: "facility" },
  { name: "Outpatient Surgery Physician/Surgical Services", kind: "facility" },
  { name: "Hospice Services", kind: "facility" },
  { name: "Routine Dental Services (Adult)", kind: "notCovered" },
  { name: "Infertility Treatment", kind: "sometimes" },
  { name: "Long-Term/Custodial Nursing Home Care", kind: "notCovered" },
  { name: "Private-Duty Nursing", kind: "sometimes" },
  { name: "Routine Eye Exam (Adult)", kind: "sometimes", limit: ["1", "Visit(s) per Benefit Period"] },
  { name: "Urgent Care Centers or Facilities", kind: "urgent" },
  { name: "Home Health Care Services", kind: "facility", limit: ["100", "Visit(s) per Benefit Period"] },
  { name: "Emergency Room Services", kind: "er" },
  { name: "Emergency Transportation/Ambulance", kind: "facility" },
  { name: "Inpatient Hospital Services (e.g., Hospital Stay)", kind: "inpatient", ehbVar: "Substantially Equal" },
  { name: "Inpatient Physician and Surgical Services", kind: "facility" },
  { name: "Bariatric Surgery", kind: "sometimes" },
  { name: "Cosmetic Surgery", kind: "notCovered" },
  { name: "Skilled Nursing Facility", kind: "inpatient", limit: ["60", "Visit(s) per Benefit Period"] },
  { name: "Prenatal and Postnatal Care", kind: "preventive" },
  { name: "Delivery and All Inpatient Services for Maternity Care", kind: "inpatient" },
  { name: "Mental/Behavioral Health Outpatient Services", kind: "office" },
  { name: "Mental/Behavioral Health Inpatient Services", kind: "inpatient" },
  { name: "Substance Abuse Disorder Outpatient Services", kind: "office" },
  { name: "Substance Abuse Disorder Inpatient Services", kind: "inpatient" },
  { name: "Generic Drugs", kind: "generic" },
  {
    name: "Preferred Brand Drugs",
    kind: "brand",
    explanation: "Cost sharing could vary based on drug and pharmacy selected.",
  },
  { name: "Non-Preferred Brand Drugs", kind: "nonpreferred" },
  {
    name: "Specialty Drugs",
    kind: "specialty",
    explanation: "Limited to a 30-day supply; must be filled at a network specialty pharmacy.",
  },
  { name: "Outpatient Rehabilitation Services", kind: "office", limit: ["30", "Visit(s) per Benefit Period"] },
  { name: "Habilitation Services", kind: "office", limit: ["30", "Visit(s) per Benefit Period"] },
  { name: "Chiropractic Care", kind: "office", limit: ["20", "Visit(s) per Benefit Period"] },
  { name: "Durable Medical Equipment", kind: "facility" },
  { name: "Hearing Aids", kind: "sometimes", limit: ["1", "Item(s) per Year"] },
  { name: "Imaging (CT/PET Scans, MRIs)", kind: "facility" },
  { name: "Preventive Care/Screening/Immunization", kind: "preventive" },
  { name: "Routine Foot Care", kind: "sometimes" },
  { name: "Acupuncture", kind: "notCovered" },
  { name: "Weight Loss Programs", kind: "notCovered" },
  { name: "Routine Eye Exam for Children", kind: "preventive", limit: ["1", "Visit(s) per Benefit Period"] },
  { name: "Eye Glasses for Children", kind: "pediatricVision", limit: ["1", "Item(s) per Year"] },
  { name: "Dental Check-Up for Children", kind: "notCovered" },
  { name: "Rehabilitative Speech Therapy", kind: "office", limit: ["20", "Visit(s) per Benefit Period"] },
  {
    name: "Rehabilitative Occupational and Rehabilitative Physical Therapy",
    kind: "office",
    limit: ["20", "Visit(s) per Benefit Period"],
  },
  { name: "Well Baby Visits and Care", kind: "preventive" },
  { name: "Laboratory Outpatient and Professional Services", kind: "facility" },
  { name: "X-rays and Diagnostic Imaging", kind: "facility" },
  { name: "Transplant", kind: "inpatient" },
  { name: "Accidental Dental", kind: "facility" },
  { name: "Dialysis", kind: "facility" },
  { name: "Allergy Testing", kind: "specialist" },
  { name: "Chemotherapy", kind: "facility" },
  { name: "Radiation", kind: "facility" },
  { name: "Diabetes Education", kind: "office" },
  { name: "Prosthetic Devices", kind: "facility" },
  { name: "Infusion Therapy", kind: "facility" },
  { name: "Treatment for Temporomandibular Joint Disorders", kind: "sometimes" },
  { name: "Nutritional Counseling", kind: "office", limit: ["6", "Visit(s) per Benefit Period"] },
  { name: "Reconstructive Surgery", kind: "facility" },
];

/** Benefit rows for stand-alone dental plans (their own small vocabulary). */
export const DENTAL_BENEFITS: readonly string[] = [
  "Dental Check-Up for Children",
  "Basic Dental Care - Child",
  "Major Dental Care - Child",
  "Orthodontia - Child",
  "Routine Dental Services (Adult)",
  "Basic Dental Care - Adult",
];

export type BenefitRow = {
  BenefitName: string;
  CopayInnTier1: string;
  CopayInnTier2: string;
  CopayOutofNet: string;
  CoinsInnTier1: string;
  CoinsInnTier2: string;
  CoinsOutofNet: string;
  IsEHB: string;
  IsCovered: string;
  QuantLimitOnSvc: string;
  LimitQty: string;
  LimitUnit: string;
  Exclusions: string;
  Explanation: string;
  EHBVarReason: string;
  IsExclFromInnMOOP: string;
  IsExclFromOonMOOP: string;
};

const NA = "Not Applicable";
const copay = (amount: number, afterDeductible: boolean, perStay = false): string => {
  if (amount <= 0) return afterDeductible ? "No Charge after deductible" : "No Charge";
  // The files write a plain copay as "$20" and qualified ones as "$250 Copay after deductible".
  if (!afterDeductible && !perStay) return dollars(amount);
  return `${dollars(amount)} Copay${perStay ? " per Stay" : ""}${afterDeductible ? " after deductible" : ""}`;
};
const coins = (pct: number, afterDeductible: boolean): string =>
  pct <= 0 && !afterDeductible ? "0.00%" : `${percent(pct)} Coinsurance${afterDeductible ? " after deductible" : ""}`;

/**
 * Whether an optional ("sometimes") benefit is covered by a plan: decided
 * once per plan so that every variant of the plan agrees.
 */
export function coversOptional(plan: Plan, benefit: string): boolean {
  let h = 0;
  for (const ch of plan.id + benefit) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  const richer = plan.metal === "Gold" || plan.metal === "Platinum";
  return (h >>> 0) % 100 < (richer ? 55 : 30);
}

/** The BenCS rows of one variant. */
export function benefitRows(plan: Plan, v: VariantDesign, multiTier: boolean): BenefitRow[] {
  if (plan.dental) return dentalRows(plan, v);
  const oonCovered = plan.type === "PPO" || plan.type === "POS";
  const bronzeLike = plan.metal === "Bronze" || plan.metal === "Expanded Bronze" || plan.metal === "Catastrophic";
  const cata = plan.metal === "Catastrophic";
  const oonCoins = oonCovered ? coins(Math.min(60, v.coinsurance + 20), true) : "100.00%";
  const tier2 = (value: string) => (multiTier ? value : "");
  const rows: BenefitRow[] = [];
  for (const spec of BENEFITS) {
    const covered =
      spec.kind === "notCovered" ? false : spec.kind === "sometimes" ? coversOptional(plan, spec.name) : true;
    if (!covered) {
      rows.push({
        BenefitName: spec.name,
        CopayInnTier1: "",
        CopayInnTier2: "",
        CopayOutofNet: "",
        CoinsInnTier1: "",
        CoinsInnTier2: "",
        CoinsOutofNet: "",
        IsEHB: "",
        IsCovered: "Not Covered",
        QuantLimitOnSvc: "",
        LimitQty: "",
        LimitUnit: "",
        Exclusions: "",
        Explanation: "",
        EHBVarReason: "Not EHB",
        IsExclFromInnMOOP: "",
        IsExclFromOonMOOP: "",
      });
      continue;
    }
    let c1 = NA;
    let k1 = NA;
    let c2 = NA;
    let k2 = NA;
    let cOon = NA;
    let kOon = oonCoins;
    const z = v.zero;
    switch (spec.kind) {
      case "office":
      case "specialist":
      case "urgent": {
        const amount =
          spec.kind === "office"
            ? v.pcpCopay
            : spec.kind === "specialist"
              ? v.specialistCopay
              : round5(v.pcpCopay * 1.6);
        if (cata) {
          c1 = spec.name.startsWith("Primary Care") ? "No Charge" : "No Charge after deductible";
        } else {
          c1 = z ? "No Charge" : copay(amount, bronzeLike && plan.metal === "Bronze");
        }
        c2 = copay(z ? 0 : round5(amount * 1.5), bronzeLike && plan.metal === "Bronze");
        k2 = NA;
        break;
      }
      case "preventive":
        c1 = "No Charge";
        c2 = "No Charge";
        kOon = oonCovered ? coins(Math.min(60, v.coinsurance + 20), true) : "100.00%";
        break;
      case "pediatricVision":
        c1 = "No Charge";
        c2 = "No Charge";
        k1 = "No Charge";
        k2 = "No Charge";
        break;
      case "facility":
      case "sometimes":
        c1 = z ? "No Charge" : cata ? "No Charge after deductible" : NA;
        k1 = z ? NA : cata ? NA : coins(v.coinsurance, v.deductible > 0);
        k2 = z ? NA : cata ? NA : coins(Math.min(50, v.coinsurance + 10), v.deductible > 0);
        break;
      case "inpatient":
        if (z) c1 = "No Charge";
        else if (plan.metal === "Platinum" || plan.metal === "Gold") {
          c1 = copay(round50(250 + v.coinsurance * 10), v.deductible > 0, true);
          c2 = copay(round50(500 + v.coinsurance * 10), v.deductible > 0, true);
        } else if (cata) c1 = "No Charge after deductible";
        else {
          k1 = coins(v.coinsurance, true);
          k2 = coins(Math.min(50, v.coinsurance + 10), true);
        }
        break;
      case "er":
        if (z) c1 = "No Charge";
        else if (cata) c1 = "No Charge after deductible";
        else {
          c1 = copay(v.erCopay, bronzeLike);
          c2 = c1;
        }
        cOon = c1; // emergencies are paid at the in-network level
        kOon = NA;
        break;
      case "generic":
        c1 = z ? "No Charge" : cata ? "No Charge after deductible" : copay(v.genericCopay, plan.metal === "Bronze");
        c2 = copay(z ? 0 : v.genericCopay + 10, plan.metal === "Bronze");
        break;
      case "brand":
        c1 = z
          ? "No Charge"
          : cata
            ? "No Charge after deductible"
            : copay(v.brandCopay, v.deductible > 0 && !v.drugDeductible);
        c2 = copay(z ? 0 : v.brandCopay + 20, true);
        break;
      case "nonpreferred":
        k1 = z ? "0.00%" : cata ? "0.00% Coinsurance after deductible" : coins(Math.min(50, v.coinsurance + 10), true);
        k2 = z ? "0.00%" : coins(Math.min(60, v.coinsurance + 20), true);
        break;
      case "specialty":
        k1 = z ? "0.00%" : cata ? "0.00% Coinsurance after deductible" : coins(Math.min(50, v.coinsurance + 10), true);
        k2 = k1;
        break;
      default:
        break;
    }
    if (z && k1 !== NA && k1 !== "No Charge") k1 = "0.00%";
    const limit = spec.limit;
    rows.push({
      BenefitName: spec.name,
      CopayInnTier1: c1,
      CopayInnTier2: tier2(c2),
      CopayOutofNet: oonCovered || spec.kind === "er" ? cOon : NA,
      CoinsInnTier1: k1,
      CoinsInnTier2: tier2(k2),
      CoinsOutofNet: kOon,
      IsEHB: "Yes",
      IsCovered: "Covered",
      QuantLimitOnSvc: limit ? "Yes" : "No",
      LimitQty: limit ? limit[0] : "",
      LimitUnit: limit ? limit[1] : "",
      Exclusions: spec.kind === "generic" ? "Drugs used for non-covered services; over-the-counter equivalents." : "",
      Explanation: spec.explanation ?? "",
      EHBVarReason: spec.ehbVar ?? "",
      IsExclFromInnMOOP: "No",
      IsExclFromOonMOOP: oonCovered ? "No" : "Yes",
    });
  }
  return rows;
}

function dentalRows(plan: Plan, v: VariantDesign): BenefitRow[] {
  return DENTAL_BENEFITS.map((name) => {
    const preventive = name.includes("Check-Up") || name.startsWith("Routine");
    const major = name.startsWith("Major") || name.startsWith("Orthodontia");
    const pct = preventive ? 0 : major ? 50 : plan.metal === "High" ? 20 : 40;
    return {
      BenefitName: name,
      CopayInnTier1: NA,
      CopayInnTier2: "",
      CopayOutofNet: NA,
      CoinsInnTier1: preventive ? "0.00%" : coins(pct, v.deductible > 0),
      CoinsInnTier2: "",
      CoinsOutofNet: preventive ? "20.00%" : coins(Math.min(80, pct + 20), true),
      IsEHB: name.includes("Child") ? "Yes" : "",
      IsCovered: "Covered",
      QuantLimitOnSvc: preventive ? "Yes" : "No",
      LimitQty: preventive ? "2" : "",
      LimitUnit: preventive ? "Visit(s) per Benefit Period" : "",
      Exclusions: "",
      Explanation: "",
      EHBVarReason: name.includes("Adult") ? "Not EHB" : "Substantially Equal",
      IsExclFromInnMOOP: name.includes("Adult") ? "Yes" : "No",
      IsExclFromOonMOOP: "Yes",
    };
  });
}

/** SBC coverage examples (the 2025+ SBC template totals: baby $12,700, diabetes $5,600, fracture $2,800). */
export function sbcScenarios(v: VariantDesign): Record<string, string> {
  const scenario = (total: number, copayShare: number, limits: number) => {
    if (v.zero) return { ded: 0, copayAmt: 0, coinsAmt: 0, limits };
    const ded = Math.min(v.deductible, Math.round(total * 0.85));
    const copayAmt = Math.min(Math.round(copayShare * (v.pcpCopay + v.specialistCopay)), Math.max(0, total - ded));
    const rest = Math.max(0, total - ded - copayAmt);
    const coinsAmt = Math.round((rest * v.coinsurance) / 100);
    // Never more than the out-of-pocket maximum.
    const over = ded + copayAmt + coinsAmt - v.moop;
    const coins = over > 0 ? Math.max(0, coinsAmt - over) : coinsAmt;
    // What the member pays in an example never exceeds the example's total cost.
    return { ded, copayAmt, coinsAmt: coins, limits: Math.min(limits, Math.max(0, total - ded - copayAmt - coins)) };
  };
  const baby = scenario(12700, 1, 60);
  const diabetes = scenario(5600, 8, 20);
  const fracture = scenario(2800, 2, 0);
  return {
    SBCHavingaBabyDeductible: dollars(baby.ded),
    SBCHavingaBabyCopayment: dollars(baby.copayAmt),
    SBCHavingaBabyCoinsurance: dollars(baby.coinsAmt),
    SBCHavingaBabyLimit: dollars(baby.limits),
    SBCHavingDiabetesDeductible: dollars(diabetes.ded),
    SBCHavingDiabetesCopayment: dollars(diabetes.copayAmt),
    SBCHavingDiabetesCoinsurance: dollars(diabetes.coinsAmt),
    SBCHavingDiabetesLimit: dollars(diabetes.limits),
    SBCHavingSimplefractureDeductible: dollars(fracture.ded),
    SBCHavingSimplefractureCopayment: dollars(fracture.copayAmt),
    SBCHavingSimplefractureCoinsurance: dollars(fracture.coinsAmt),
    SBCHavingSimplefractureLimit: dollars(fracture.limits),
  };
}
