import { describe, expect, it } from "vitest";
import { shoppingPage } from "../../../app/server/pages/shopping-page.server";
import { lookUpCounties } from "../../../app/server/shopping/counties.server";
import { CountiesResponse } from "../../../app/schemas/shopping";
import { pagesOverFakeUpstream } from "../../helpers/in-process-pages";

/**
 * Issue 17 item 13: a real ZIP missing from the ZIP–county data (own and
 * upstream) is placed by its USPS 3-digit prefix, not called a typo.
 */

const KEY = "zip-prefix-place-test-key-012345";
pagesOverFakeUpstream(KEY);

const page = (query: string) => shoppingPage(new URL(`http://localhost/plans?${query}`));

describe("a ZIP missing from the ZIP–county data", () => {
  it("30303 (Atlanta, PO boxes): Georgia runs its own marketplace, so the shopper is handed to Georgia Access", async () => {
    const answer = await lookUpCounties({ zip: "30303" });
    expect(CountiesResponse.parse(answer)).toEqual(answer);
    expect(answer.counties).toEqual([]);
    expect(answer.zip_prefix_state).toBe("GA");
    expect(answer.sbeRedirect?.marketplace_name).toBe("Georgia Access");
    const shown = await page("zip=30303");
    expect(shown.step).toBe("sbe");
    if (shown.step === "sbe") expect(shown.redirect.state).toBe("GA");
  });

  it("a Texas ZIP not on file: the counties of Texas to choose from, then the household step for the chosen one", async () => {
    const answer = await lookUpCounties({ zip: "75999" });
    expect(answer.zip_prefix_state).toBe("TX");
    expect(answer.counties.length).toBeGreaterThan(1);
    expect(answer.counties.every((c) => c.state === "TX" && c.share === null)).toBe(true);
    const shown = await page("zip=75999");
    expect(shown.step).toBe("county");
    if (shown.step !== "county") return;
    expect(shown.zipPrefixState).toBe("TX");
    expect(shown.counties.map((c) => c.fips)).toContain("48113");
    const next = await page("zip=75999&county=48113");
    expect(next.step).toBe("household");
    if (next.step === "household") expect(next.place).toMatchObject({ state: "TX", countyFips: "48113" });
  });

  it("says 'check the number' only when the prefix does not exist", async () => {
    const missing = await page("zip=00100");
    expect(missing).toEqual({
      step: "zip",
      zip: "00100",
      error: "We could not find ZIP code 00100. Check the number and try again.",
    });
    const known = await lookUpCounties({ zip: "75201" });
    expect(known.zip_prefix_state).toBeNull();
    expect(known.source).toBe("own");
  });
});
