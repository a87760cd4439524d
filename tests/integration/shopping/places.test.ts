import { beforeAll, describe, expect, it } from "vitest";
import * as eligibilityRoute from "../../../app/routes/api.eligibility";
import * as plansRoute from "../../../app/routes/api.plans";
import { configureShopping, postJson, self, shoppingBody } from "./helpers";

// Places the service cannot shop for answer a clear 4xx naming the field, never a 5xx.
describe("places outside the marketplace", () => {
  beforeAll(() => configureShopping({}));

  it("answers a territory or unknown state code with 400 naming place.state", async () => {
    for (const route of [eligibilityRoute, plansRoute]) {
      const res = await postJson(
        route,
        "/api/x",
        shoppingBody({ state: "PR", county_fips: "72127", zip: "00901" }, [self(40)], 30000),
      );
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.fields)).toContain("place.state");
    }
  });

  it("answers a state-based marketplace with 409 and its name and link", async () => {
    const res = await postJson(
      plansRoute,
      "/api/plans",
      shoppingBody({ state: "CA", county_fips: "06037", zip: "90210" }, [self(40)], 30000),
    );
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("state_based_marketplace");
    expect(res.body.error.message).toContain("Covered California");
    expect(res.body.error.message).toContain("https://www.coveredca.com");
  });
});
