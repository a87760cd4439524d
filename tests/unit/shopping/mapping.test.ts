import { describe, expect, it } from "vitest";
import { ShoppingRequest } from "../../../app/schemas/shopping";
import type { StateInfo } from "../../../app/server/plan-store/plan-store.server";
import { householdSizeOf, upstreamHousehold } from "../../../app/server/shopping/household.server";
import { sbeRedirectFor } from "../../../app/server/shopping/place.server";

/** Small mappings of the shopping core: the SBE redirect and the household sent upstream. */

const state = (patch: Partial<StateInfo>): StateInfo => ({
  code: "XX",
  name: "Somewhere",
  exchangeKind: "healthcaregov",
  ownedData: true,
  planYear: 2027,
  ...patch,
});

describe("sbeRedirectFor", () => {
  it("redirects a state-based exchange the service does not price, with its name and URL", () => {
    expect(
      sbeRedirectFor(
        state({
          code: "CA",
          exchangeKind: "sbe",
          ownedData: false,
          marketplaceName: "Covered California",
          marketplaceUrl: "https://www.coveredca.com",
        }),
      ),
    ).toEqual({
      state: "CA",
      marketplace_name: "Covered California",
      marketplace_url: "https://www.coveredca.com",
    });
  });

  it("never redirects an owned-data state (NY is an SBE priced from own data), a HealthCare.gov state, or an unknown one", () => {
    expect(sbeRedirectFor(state({ code: "NY", exchangeKind: "sbe", ownedData: true }))).toBeNull();
    expect(sbeRedirectFor(state({ code: "AR", exchangeKind: "sbe_federal_platform", ownedData: true }))).toBeNull();
    expect(sbeRedirectFor(state({ code: "TX" }))).toBeNull();
    expect(sbeRedirectFor(undefined)).toBeNull();
  });

  it("falls back to HealthCare.gov's state finder when the states file gives no address", () => {
    expect(sbeRedirectFor(state({ code: "ZZ", name: "Zedland", exchangeKind: "sbe", ownedData: false }))).toEqual({
      state: "ZZ",
      marketplace_name: "Zedland's marketplace",
      marketplace_url: "https://www.healthcare.gov/marketplace-in-your-state/",
    });
  });
});

describe("upstreamHousehold", () => {
  const request = ShoppingRequest.parse({
    income: 52_000.5,
    household: {
      size: 5,
      people: [
        { age: 41, uses_tobacco: true },
        { age: 39, relationship: "spouse", is_pregnant: true },
        { age: 8, relationship: "child" },
        { age: 70, relationship: "other" },
      ],
    },
    place: { state: "tx", county_fips: "48113", zip: "75201" },
    coverage_date: "2027-03-01",
  });

  it("sends each applicant in upstream's words, the married-couple flag and the coverage date", () => {
    expect(request.place.state).toBe("TX");
    expect(upstreamHousehold(request)).toEqual({
      income: 52_000.5,
      people: [
        { age: 41, uses_tobacco: true, is_pregnant: false, relationship: "Self", aptc_eligible: true },
        {
          age: 39,
          uses_tobacco: false,
          is_pregnant: true,
          pregnant_with: 1,
          relationship: "Spouse",
          aptc_eligible: true,
        },
        { age: 8, uses_tobacco: false, is_pregnant: false, relationship: "Child", aptc_eligible: true },
        { age: 70, uses_tobacco: false, is_pregnant: false, relationship: "Other Relative", aptc_eligible: true },
      ],
      has_married_couple: true,
      effective_date: "2027-03-01",
    });
  });

  it("for the estimate, adds the tax-household members who are not applying as covered elsewhere", () => {
    expect(householdSizeOf(request)).toBe(5);
    const people = upstreamHousehold(request, { countNonApplicants: true }).people;
    expect(people).toHaveLength(5);
    expect(people[4]).toEqual({ age: 41, relationship: "Other Relative", aptc_eligible: false, has_mec: true });
  });

  it("adds nobody when the household is exactly the applicants", () => {
    const single = ShoppingRequest.parse({
      income: 30_000,
      household: { people: [{ age: 30 }] },
      place: { state: "TX", county_fips: "48113", zip: "75201" },
    });
    expect(upstreamHousehold(single, { countNonApplicants: true }).people).toHaveLength(1);
    expect(upstreamHousehold(single).has_married_couple).toBe(false);
  });
});
