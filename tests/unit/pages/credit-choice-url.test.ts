import { describe, expect, it } from "vitest";
import { plansHref, readShoppingState, stateEntries } from "../../../app/lib/shopping-url";
import { checkHousehold } from "../../../app/server/shopping/shopping-url.server";

// `aptc_applied` in the shopping URL (docs/decisions/320): the monthly credit taken in advance.
const HOUSEHOLD = "zip=11201&county=36047&state=NY&income=40000&age=40&tobacco=no&pregnant=no&rel=self";
const state = (extra: string) => readShoppingState(new URLSearchParams(`${HOUSEHOLD}&${extra}`));

describe("the credit taken in advance in the URL", () => {
  it("is read, written back after the household, and left out by a form that asks for it", () => {
    const s = state("aptc_applied=150.5&usage=low");
    expect(s.aptcApplied).toBe("150.5");
    const entries = stateEntries(s);
    expect(entries.findIndex(([k]) => k === "aptc_applied")).toBe(entries.findIndex(([k]) => k === "usage") - 1);
    expect(stateEntries(s, ["credit"]).some(([k]) => k === "aptc_applied")).toBe(false);
    expect(plansHref(s)).toContain("aptc_applied=150.5");
    // Absent: nothing is written (all of the credit).
    expect(state("usage=low").aptcApplied).toBeUndefined();
    expect(plansHref(state("usage=low"))).not.toContain("aptc_applied");
  });

  it("becomes the request's aptc_applied; an amount that is not dollars is dropped and named", () => {
    const ok = checkHousehold(state("aptc_applied=%24150.50"));
    expect(ok.ok && ok.request.aptc_applied).toBe(150.5);
    const bad = checkHousehold(state("aptc_applied=lots"));
    expect(bad.ok).toBe(true);
    if (!bad.ok) return;
    expect(bad.request.aptc_applied).toBeUndefined();
    expect(bad.ignored).toEqual(['credit to take "lots"']);
    expect(bad.state.aptcApplied).toBeUndefined();
    const none = checkHousehold(state("usage=low"));
    expect(none.ok && "aptc_applied" in none.request).toBe(false);
  });
});
