import { describe, expect, it } from "vitest";
import {
  describeTierCostShare,
  keyBenefitWords,
  planCostShareOf,
  type TierCostShareText,
} from "../../../app/domain/cost-share";

/** A plan's cost sharing in a person's words and in the yearly estimate's numbers (BenCS PUF text). */

const part = (display: string | null, notApplicable = false) => ({ display, notApplicable });
const tier = (copay: string | null, coinsurance: string | null): TierCostShareText => ({
  copay: part(copay, copay === "Not Applicable"),
  coinsurance: part(coinsurance, coinsurance === "Not Applicable"),
});

describe("describeTierCostShare", () => {
  it("says the copay and the coinsurance in the PUF's words", () => {
    expect(describeTierCostShare(tier("$30.00 Copay after deductible", "Not Applicable"))).toBe(
      "$30.00 Copay after deductible",
    );
    expect(describeTierCostShare(tier("Not Applicable", "20.00% Coinsurance after deductible"))).toBe(
      "20.00% Coinsurance after deductible",
    );
    expect(describeTierCostShare(tier("$10.00", "10.00%"))).toBe("$10.00, 10.00%");
  });

  it("says 'No Charge' once, and nothing when the data says nothing", () => {
    expect(describeTierCostShare(tier("No Charge", "No Charge"))).toBe("No Charge");
    expect(describeTierCostShare(tier(null, null))).toBeNull();
    expect(describeTierCostShare(tier("Not Applicable", "Not Applicable"))).toBeNull();
    expect(describeTierCostShare(undefined)).toBeNull();
  });
});

describe("keyBenefitWords", () => {
  it("names the five list benefits in order, null where the plan does not say", () => {
    const words = keyBenefitWords({ specialist: tier("$50.00", "Not Applicable"), imaging: tier("$1.00", null) });
    expect(Object.entries(words)).toEqual([
      ["primary_care", null],
      ["specialist", "$50.00"],
      ["generic_drugs", null],
      ["emergency_room", null],
      ["urgent_care", null],
    ]);
  });
});

describe("planCostShareOf", () => {
  const every = {
    primaryCare: tier("$30.00", "Not Applicable"),
    specialist: tier("$60.00 Copay after deductible", "Not Applicable"),
    urgentCare: tier("$75.00", "Not Applicable"),
    imaging: tier("Not Applicable", "20.00% Coinsurance after deductible"),
    genericDrugs: tier("$10.00", "Not Applicable"),
    preferredBrandDrugs: tier("$50.00", "Not Applicable"),
    emergencyRoom: tier("Not Applicable", "30.00% Coinsurance after deductible"),
    inpatientStay: tier("Not Applicable", "30.00% Coinsurance after deductible"),
  };

  it("reads every service's copay or coinsurance, and the limits, as the yearly estimate needs them", () => {
    const { costShare, complete } = planCostShareOf(
      { individual: 4500, family: 9000 },
      { individual: 8000, family: 16000 },
      every,
    );
    expect(complete).toBe(true);
    expect(costShare.deductible).toBe(4500);
    expect(costShare.familyMoop).toBe(16000);
    expect(costShare.services.primaryCare).toEqual({
      copay: 30,
      coinsurance: 0,
      subjectToDeductible: false,
      covered: true,
    });
    expect(costShare.services.imaging).toEqual({
      copay: 0,
      coinsurance: 0.2,
      subjectToDeductible: true,
      covered: true,
    });
    expect(costShare.services.genericDrug.copay).toBe(10);
  });

  it("is incomplete without a limit or a service's cost share, and assumes deductible-only for that service", () => {
    const { urgentCare: _missing, ...rest } = every;
    const noService = planCostShareOf({ individual: 4500, family: null }, { individual: 8000, family: null }, rest);
    expect(noService.complete).toBe(false);
    expect(noService.costShare.services.urgentCare).toEqual({
      copay: 0,
      coinsurance: 0,
      subjectToDeductible: true,
      covered: true,
    });
    const noDeductible = planCostShareOf({ individual: null, family: null }, { individual: 8000, family: null }, every);
    expect(noDeductible.complete).toBe(false);
    expect(noDeductible.costShare.deductible).toBe(0);
  });
});
