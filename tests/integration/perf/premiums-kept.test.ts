import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { priceOffer } from "../../../app/server/shopping/priced-offer.server";
import type { Member } from "../../../app/domain/rating";
import { householdPricer, ratingTable } from "../../../app/domain/household-price";
import { TEST_PLAN_STORE } from "../../helpers/server";

/**
 * Decision 454: a whole offer's household premiums are kept per offer for the last few sets of
 * people priced there; a list priced again for the same people (another income, usage, sort) reads
 * them, and they are the premiums rating each plan gives, to the cent.
 */
const DALLAS = { year: 2027, state: "TX", countyFips: "48113", zip: "75201" };
let store: PlanStore;
beforeAll(() => {
  store = new PlanStore(TEST_PLAN_STORE);
});
afterAll(() => store.close());

const member = (age: number, relationship: Member["relationship"], usesTobacco = false): Member => ({
  age,
  usesTobacco,
  relationship,
});
const family = [member(40, "self", true), member(38, "spouse"), member(10, "child"), member(7, "child")];
const priced = (members: Member[], aptc: number) =>
  priceOffer(store.placeOffer(DALLAS), {
    members,
    state: "TX",
    year: 2027,
    usage: "medium",
    eligibility: aptc === 0 ? null : ({ aptc_applied: aptc, csr: null } as never),
  });

/** Each plan's premium, without tobacco and surcharge, as its own answer object shows them. */
const premiumsOf = (list: ReturnType<typeof priced>) =>
  Array.from({ length: list.length }, (_, k) => {
    const a = list.answerAt(k);
    return [a.id, a.premium, a.ehb_premium, a.tobacco_surcharge, a.premium_w_credit] as const;
  });

describe("household premiums kept per offer", () => {
  it("are the premiums rating each plan gives, the first time and when read again", () => {
    const offer = store.placeOffer(DALLAS);
    const price = householdPricer(family, "TX", 2027);
    const expected = offer.plans
      .map((p, i) => [p.id, offer.rateTables[i]] as const)
      .filter(([, table]) => table !== null)
      .map(([id, table]) => [
        id,
        price(ratingTable(table!), { premium: 0, premiumWithoutTobacco: 0, tobaccoSurcharge: 0 }),
      ]);
    for (const pass of [1, 2]) {
      const list = priced(family, 0);
      expect(list.length, `pass ${pass}`).toBe(expected.length);
      for (let k = 0; k < list.length; k++) {
        const a = list.answerAt(k);
        const [id, p] = expected[k] as [string, { premium: number; tobaccoSurcharge: number }];
        expect([a.id, a.premium, a.tobacco_surcharge], `pass ${pass}`).toEqual([id, p.premium, p.tobaccoSurcharge]);
      }
    }
  });

  it("another income reads the same premiums; another credit is applied to them; other people are priced afresh", () => {
    const first = premiumsOf(priced(family, 0));
    const again = premiumsOf(priced(family, 0));
    expect(again).toEqual(first);
    const withCredit = premiumsOf(priced(family, 500));
    expect(withCredit.map((p) => p.slice(0, 4))).toEqual(first.map((p) => p.slice(0, 4)));
    expect(withCredit.some((p, k) => p[4] < first[k][4])).toBe(true);
    const nonSmoker = premiumsOf(priced([member(40, "self"), ...family.slice(1)], 0));
    expect(nonSmoker.every((p) => p[3] === 0)).toBe(true);
    expect(first.some((p) => p[3] > 0)).toBe(true);
    const older = premiumsOf(priced([member(60, "self", true), ...family.slice(1)], 0));
    expect(older.every((p, k) => p[1] > first[k][1])).toBe(true);
    // The first family again, after other people were priced: the same numbers.
    expect(premiumsOf(priced(family, 0))).toEqual(first);
  });
});
