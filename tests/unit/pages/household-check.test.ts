import { describe, expect, it } from "vitest";
import {
  checkHousehold,
  householdSubmitted,
  parseDollars,
  viewOptionsOf,
  zipError,
} from "../../../app/server/shopping/shopping-url.server";
import { readShoppingState, stateEntries } from "../../../app/lib/shopping-url";

const state = (text: string) => readShoppingState(new URLSearchParams(`zip=75201&county=48113&state=TX&${text}`));

describe("the household in the URL, checked with the /api/plans schema", () => {
  it("turns a filled-in household into the same request POST /api/plans takes", () => {
    const check = checkHousehold(
      state(
        "income=%2452%2C000.50&size=4&age=40&tobacco=yes&pregnant=no&rel=self&age=38&tobacco=no&pregnant=yes&rel=spouse&age=9&tobacco=no&pregnant=no&rel=child&usage=high&sort=quality_rating",
      ),
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.request).toEqual({
      income: 52000.5,
      household: {
        size: 4,
        people: [
          { age: 40, uses_tobacco: true, is_pregnant: false, relationship: "self" },
          { age: 38, uses_tobacco: false, is_pregnant: true, relationship: "spouse" },
          { age: 9, uses_tobacco: false, is_pregnant: false, relationship: "child" },
        ],
      },
      place: { state: "TX", county_fips: "48113", zip: "75201" },
      sort: "quality_rating",
      // A rating sorts best first unless the URL says otherwise.
      order: "desc",
      usage: "high",
      // The API's default page; the results page asks for every plan (docs/decisions/119).
      limit: 50,
      offset: 0,
    });
  });

  it("names every field a person must fix, in words, at once", () => {
    const check = checkHousehold(state("income=lots&age=&age=121&age=x&size=2"));
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toEqual({
      income: "Enter your expected household income for the year in dollars, for example 36000.",
      "age-0": "Enter an age from 0 to 120, in whole years.",
      "age-1": "Enter an age from 0 to 120, in whole years.",
      "age-2": "Enter an age from 0 to 120, in whole years.",
      // Nobody's relationship is guessed: an added person must choose one (docs/decisions/210).
      "rel-1": "Choose how person 2 is related to you.",
      "rel-2": "Choose how person 3 is related to you.",
      size: "Enter a number from 3 to 20: everyone in your tax household, at least the 3 people listed.",
    });
  });

  it("names the relationship field for a second spouse, and asks for an adult", () => {
    const spouses = checkHousehold(state("income=50000&age=40&rel=self&age=38&rel=spouse&age=37&rel=spouse"));
    expect(spouses.ok ? null : spouses.errors["rel-2"]).toMatch(/Only one person can be "spouse"/);
    const children = checkHousehold(state("income=50000&age=12&rel=self&age=9&rel=child"));
    expect(children.ok ? null : children.errors["age-0"]).toMatch(/needs an adult/);
  });

  it("passes a ticked Medicare box as medicare_eligible false", () => {
    const check = checkHousehold(state("income=50000&age=66&rel=self&no_medicare=0"));
    expect(check.ok && check.request.household.people[0].medicare_eligible).toBe(false);
  });

  it("asks for a person when the URL lists none", () => {
    const check = checkHousehold(state("income=30000"));
    expect(check.ok ? null : check.errors["age-0"]).toBe("Enter an age from 0 to 120, in whole years.");
  });

  it("drops sorts and filters the plans API does not accept, names them, and keeps them out of the state it hands back", () => {
    const s = state(
      "income=30000&age=30&sort=cheapest&usage=lots&metal=Tin&metal=Silver&type=HMO&issuer=Acme&issuer=10303&max_premium=abc&max_deductible=2%2C000",
    );
    const view = viewOptionsOf(s);
    expect(view.sort).toBe("premium");
    expect(view.usage).toBe("medium");
    expect(view.filters).toEqual({
      metal_levels: ["Silver"],
      types: ["HMO"],
      issuers: ["10303"],
      max_deductible: 2000,
    });
    expect(view.ignored).toEqual([
      'sort "cheapest"',
      'usage "lots"',
      'metal level "Tin"',
      'issuer "Acme"',
      'maximum premium "abc"',
    ]);
    const check = checkHousehold(s);
    expect(check.ok && check.state.sort).toBe("");
    expect(check.ok && check.state.metal).toEqual(["Silver"]);
    expect(check.ok && check.state.maxPremium).toBe("");
  });

  it("reads money the way people type it", () => {
    expect(parseDollars("36000")).toBe(36000);
    expect(parseDollars(" $36,000.25 ")).toBe(36000.25);
    expect(parseDollars("36k")).toBeNull();
    expect(parseDollars("-5")).toBeNull();
    expect(parseDollars("1.234")).toBeNull();
  });

  it("checks the ZIP code and knows when the household form was sent", () => {
    expect(zipError("")).toBe("Enter your 5-digit ZIP code.");
    expect(zipError("7520")).toBe("A ZIP code has 5 digits, for example 75201.");
    expect(zipError("75201")).toBeNull();
    expect(householdSubmitted(new URLSearchParams("zip=75201"))).toBe(false);
    expect(householdSubmitted(new URLSearchParams("zip=75201&income="))).toBe(true);
  });
});

describe("issue 25 in the URL: pregnancy by age, babies, and a hardship exemption", () => {
  it("pregnant=2 is twins; an answer for an age the page does not ask (7, 60) is not used", () => {
    const check = checkHousehold(
      state(
        "income=40000&age=30&tobacco=no&pregnant=2&rel=self&age=7&tobacco=no&pregnant=yes&rel=child&age=60&tobacco=no&pregnant=yes&rel=other",
      ),
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.request.household.people.map((p) => [p.is_pregnant, p.expected_babies])).toEqual([
      [true, 2],
      [false, undefined],
      [false, undefined],
    ]);
  });

  it("hardship_exemption=yes becomes the request's hardship_exemption and stays in the URL", () => {
    const s = state("income=40000&age=35&tobacco=no&pregnant=no&rel=self&hardship_exemption=yes");
    expect(s.hardshipExemption).toBe(true);
    const check = checkHousehold(s);
    expect(check.ok && check.request.hardship_exemption).toBe(true);
    expect(stateEntries(s)).toContainEqual(["hardship_exemption", "yes"]);
    expect(stateEntries(s)).toContainEqual(["pregnant", "no"]);
    const twins = state("income=40000&age=30&tobacco=no&pregnant=2&rel=self");
    expect(stateEntries(twins)).toContainEqual(["pregnant", "2"]);
    const none = state("income=40000&age=35&tobacco=no&pregnant=no&rel=self");
    expect(
      checkHousehold(none).ok && "hardship_exemption" in (checkHousehold(none) as { request: object }).request,
    ).toBe(false);
  });
});
