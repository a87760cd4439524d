import { describe, expect, it } from "vitest";
import { enrollSteps, HEALTHCARE_GOV, marketplaceFor, STATE_MARKETPLACES } from "../../../app/domain/marketplaces";
import { isStandardizedDesign } from "../../../app/domain/plan-design";
import { parameter } from "../../../app/domain/parameters/parameter-file";

const base = { planId: "12345TX0010001", planName: "Lone Star Silver", year: 2027, issuerName: "Lone Star Health" };

describe("where a shopper applies and enrolls", () => {
  it("sends a federally run state to HealthCare.gov, with the plan ID and year to look for", () => {
    const [step, ...rest] = enrollSteps({ ...base, state: "TX", kind: "healthcaregov" });
    expect(rest).toEqual([]);
    expect(step.href).toBe(HEALTHCARE_GOV.url);
    expect(step.label).toBe("Apply and enroll at HealthCare.gov");
    expect(step.host).toBe("www.healthcare.gov");
    expect(step.note).toContain("12345TX0010001");
    expect(step.note).toContain("2027");
  });

  it("sends New York to NY State of Health, never to HealthCare.gov", () => {
    const steps = enrollSteps({ ...base, state: "NY", kind: "sbe" });
    expect(steps.map((s) => s.href)).toEqual(["https://nystateofhealth.ny.gov"]);
    expect(steps[0].label).toBe("Apply and enroll at NY State of Health");
    expect(steps.some((s) => s.href.includes("healthcare.gov"))).toBe(false);
  });

  it("sends a state-based marketplace state to its own site, and Oregon there only once it runs its own platform", () => {
    expect(marketplaceFor("GA", "sbe").name).toBe("Georgia Access");
    expect(marketplaceFor("OR", "sbe_federal_platform")).toBe(HEALTHCARE_GOV);
    expect(marketplaceFor("OR", "sbe").url).toBe("https://healthcare.oregon.gov");
    // Without the store's answer the 2026 table decides: Oregon stays on HealthCare.gov.
    expect(marketplaceFor("OR", undefined)).toBe(HEALTHCARE_GOV);
    expect(marketplaceFor("CA", undefined).name).toBe("Covered California");
  });

  it("has an address, a year and a source for every state on its own platform in 2026", () => {
    for (const code of parameter("marketplaceType", 2026).stateBasedOwnPlatform) {
      const row = STATE_MARKETPLACES[code];
      expect(row, code).toBeDefined();
      expect(row.url).toMatch(/^https:\/\//);
      expect(row.year).toBe(2026);
      expect(row.source.length).toBeGreaterThan(10);
    }
  });

  it("adds the insurer's enrollment page when the data has one, saying it is the insurer's site", () => {
    const steps = enrollSteps({
      ...base,
      state: "TX",
      kind: "healthcaregov",
      insurerUrl: "https://enroll.lonestar.example/pay",
    });
    expect(steps.map((s) => s.kind)).toEqual(["marketplace", "insurer"]);
    expect(steps[1].label).toBe("Enroll or pay with Lone Star Health");
    expect(steps[1].host).toBe("enroll.lonestar.example");
    expect(
      enrollSteps({ ...base, state: "TX", kind: "healthcaregov", insurerUrl: "javascript:alert(1)" }),
    ).toHaveLength(1);
  });

  it("reads the PUF design type: 'Design 1' is standardized, 'Not Applicable' is not", () => {
    expect(isStandardizedDesign("Design 1")).toBe(true);
    expect(isStandardizedDesign("Design 5")).toBe(true);
    expect(isStandardizedDesign("Not Applicable")).toBe(false);
    expect(isStandardizedDesign(null)).toBe(false);
  });
});
