import { eligibilityUnavailableIn } from "../../../app/server/pages/page-parts.server";
import { describe, expect, it } from "vitest";
import { doctorCoverageWords, drugCoverageWords } from "../../../app/components/plans/coverage-words";
import { eligibilityMessages, LINKS } from "../../../app/components/plans/eligibility-words";
import { costShareWords } from "../../../app/components/plans/cost-share-words";
import { money } from "../../../app/components/plans/format";
import { tierWords } from "../../../app/components/plans/plan-words";

const base = { aptc: 0, csr: null, is_medicaid_chip: false, in_coverage_gap: false, fpl_percent: null };

describe("money and cost-sharing in plain words", () => {
  it("writes dollars with cents and thousands separators", () => {
    expect(money(674.14)).toBe("$674.14");
    expect(money(1234.5)).toBe("$1,234.50");
    expect(money(0)).toBe("$0.00");
  });

  it("says what a PUF cost-share means", () => {
    expect(costShareWords("$25")).toBe("$25 copay");
    expect(costShareWords("$50 Copay after deductible")).toBe("$50 copay after deductible");
    expect(costShareWords("30.00% Coinsurance after deductible")).toBe("30% coinsurance after deductible");
    expect(costShareWords("100.00%")).toBe("You pay the full cost (100% coinsurance)");
    expect(costShareWords("No Charge")).toBe("No charge");
    expect(costShareWords("$20, 10.00% Coinsurance")).toBe("$20 copay, 10% coinsurance");
    expect(costShareWords(null)).toBe("Not stated");
  });

  it("reads formulary tiers", () => {
    expect(tierWords("NON-PREFERRED-BRAND")).toBe("non-preferred brand");
    expect(tierWords("PREFERRED-GENERIC")).toBe("preferred generic");
    expect(tierWords(null)).toBeNull();
  });
});

describe("coverage per plan: covered (tier), with restrictions, not covered, unknown", () => {
  it("words each drug answer", () => {
    expect(drugCoverageWords({ coverage: "Covered", drug_tier: "GENERIC" }, "ok")).toEqual({
      tone: "covered",
      text: "Covered (tier: generic)",
    });
    expect(drugCoverageWords({ coverage: "GenericCovered", drug_tier: "GENERIC" }, "ok").text).toBe(
      "Covered as a generic (tier: generic)",
    );
    expect(
      drugCoverageWords(
        {
          coverage: "PartialCovered",
          drug_tier: "NON-PREFERRED-BRAND",
          restrictions: { prior_authorization: true, step_therapy: false, quantity_limit: true },
        },
        "ok",
      ),
    ).toEqual({
      tone: "restricted",
      text: "Covered with restrictions: prior authorization, a quantity limit (tier: non-preferred brand)",
    });
    expect(drugCoverageWords({ coverage: "NotCovered" }, "ok")).toEqual({ tone: "not-covered", text: "Not covered" });
  });

  it("never calls an unknown answer 'not covered', and says when the check itself was unavailable", () => {
    expect(drugCoverageWords({ coverage: "DataNotProvided" }, "ok").tone).toBe("unknown");
    expect(drugCoverageWords(undefined, "partial").tone).toBe("unknown");
    expect(drugCoverageWords(undefined, "unavailable").text).toBe(
      "Unknown: the coverage check is unavailable right now",
    );
    expect(doctorCoverageWords(undefined, "ok").text).toContain("provider directory");
  });

  it("words each doctor answer as network words", () => {
    expect(doctorCoverageWords({ coverage: "Covered", network_tier: "PREFERRED" }, "ok").text).toBe(
      "In network (tier: preferred)",
    );
    expect(doctorCoverageWords({ coverage: "PartialCovered" }, "ok").tone).toBe("restricted");
    expect(doctorCoverageWords({ coverage: "NotCovered" }, "ok").text).toBe("Not in network");
  });
});

describe("the eligibility summary", () => {
  it("states the monthly credit and the yearly total, and the savings level in plain words", () => {
    // $674.14 a month × 12 = $8,089.68 a year.
    const messages = eligibilityMessages({ ...base, aptc: 674.14, csr: "73" }, null, "TX");
    expect(messages.map((m) => m.heading)).toEqual([
      "You could get a tax credit of $674.14 a month",
      "Your savings level: silver plans have lower deductibles and copays for you (73% level)",
    ]);
    expect(messages[0].body[0]).toContain("That is $8,089.68 over the year.");
    expect(eligibilityMessages({ ...base, aptc: 10, csr: "94" }, null, "TX")[1].heading).toBe(
      "Your savings level: silver plans have much lower deductibles and copays for you (94% level)",
    );
  });

  it("sends a Medicaid/CHIP household to Medicaid with a real link, and NY households to NY State of Health", () => {
    const tx = eligibilityMessages({ ...base, is_medicaid_chip: true }, null, "TX");
    expect(tx.map((m) => m.id)).toEqual(["medicaid"]);
    expect(tx[0].links).toEqual([LINKS.medicaidChip]);
    expect(tx[0].links[0].href).toBe("https://www.healthcare.gov/medicaid-chip/");
    const ny = eligibilityMessages({ ...base, is_medicaid_chip: true }, null, "NY");
    expect(ny[0].links.map((l) => l.href)).toContain("https://nystateofhealth.ny.gov/");
  });

  it("points New Yorkers at NY State of Health for the credit, never at HealthCare.gov", () => {
    const cases = [
      eligibilityMessages({ ...base, aptc: 412.5, csr: "87" }, null, "NY"),
      eligibilityMessages({ ...base, aptc: 0 }, null, "NY"),
      eligibilityMessages(null, "The estimate is unavailable.", "NY"),
    ];
    for (const messages of cases) {
      const hrefs = messages.flatMap((m) => m.links.map((l) => l.href));
      expect(hrefs.some((href) => href.includes("healthcare.gov/lower-costs"))).toBe(false);
      expect(hrefs).toContain("https://nystateofhealth.ny.gov/");
    }
    // A federally run state keeps HealthCare.gov's explanation.
    const tx = eligibilityMessages({ ...base, aptc: 412.5, csr: "87" }, null, "TX");
    expect(tx[0].links).toEqual([LINKS.taxCredit]);
  });

  it("explains the coverage gap and what to do next", () => {
    const gap = eligibilityMessages({ ...base, in_coverage_gap: true }, null, "TX");
    expect(gap.map((m) => m.id)).toEqual(["coverage-gap"]);
    expect(gap[0].body.join(" ")).toContain("What to do next");
    expect(gap[0].links.map((l) => l.href)).toEqual([
      "https://www.healthcare.gov/medicaid-chip/medicaid-expansion-and-you/",
      "https://findahealthcenter.hrsa.gov/",
    ]);
  });

  it("routes a New York household to the Essential Plan", () => {
    const ep = eligibilityMessages({ ...base, essential_plan: true }, null, "NY");
    expect(ep.map((m) => m.id)).toEqual(["essential-plan"]);
    expect(ep[0].links[0].href).toBe("https://info.nystateofhealth.ny.gov/EssentialPlan");
  });

  it("says when no credit applies, and when the estimate could not be made (prices are full prices)", () => {
    expect(eligibilityMessages(base, null, "TX").map((m) => m.id)).toEqual(["no-credit"]);
    // The page model's plain sentence is the body as it is (it says whether trying again can help).
    const down = eligibilityMessages(
      null,
      eligibilityUnavailableIn("The subsidy estimate is unavailable right now: x", "en"),
      "TX",
    );
    expect(down).toHaveLength(1);
    expect(down[0].heading).toBe("We could not estimate your tax credit");
    expect(down[0].body).toEqual([
      "The subsidy estimate is unavailable right now. The prices below are full prices, before any tax credit. You may pay less: try again in a few minutes.",
    ]);
    // Issue 28 item 6: a refusal (retrying cannot help) in plain words, no upstream jargon or codes.
    const refused = eligibilityUnavailableIn(
      "The federal Marketplace could not estimate a subsidy here. not enough plans to calculate SLCSP/LCBP (1016)",
      "en",
    )!;
    expect(refused).not.toMatch(/SLCSP|LCBP|1015|1016|try again/i);
    expect(refused).toContain("Trying again will not change this");
    expect(eligibilityUnavailableIn("The federal Marketplace could not estimate a subsidy here. 1015", "es")).toContain(
      "Volver a intentarlo no cambiará esto",
    );
  });
});
