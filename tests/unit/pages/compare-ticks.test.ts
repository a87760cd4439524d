import { describe, expect, it } from "vitest";
import {
  COMPARE_MAX,
  COMPARE_MIN,
  MAX_COMPARE_TICKS,
  compareHref,
  compareIdsOf,
  compareProblem,
  controlValues,
  plansHref,
  readShoppingState,
  sameListExceptTicks,
  stateEntries,
  withCompareTick,
  withoutFilters,
} from "../../../app/lib/shopping-url";
import {
  compareCountWords,
  compareErrorOf,
  compareErrorWords,
  compareHintWords,
} from "../../../app/components/plans/compare-words";
import { tFor } from "../../../app/i18n/i18n";

/** Issue 17 items 2 and 4: the URL state rules of the results page (docs/decisions/260, 261). */

const q = (text: string) => new URLSearchParams(text);
const SEARCH = "zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self";

describe("ticks for comparison live in the URL", () => {
  it("are part of the shopping state: every link and form built from it carries them", () => {
    const state = readShoppingState(q(`${SEARCH}&sort=deductible&compare=10303TX0030001&compare=10101TX0010001`));
    expect(state.compare).toEqual(["10303TX0030001", "10101TX0010001"]);
    // A plan link, "Clear filters" and the filter form's hidden fields keep them (paging links are plansHref too).
    const href = plansHref(withoutFilters(state));
    expect(compareIdsOf(new URL(href, "http://x").searchParams)).toEqual(["10303TX0030001", "10101TX0010001"]);
    expect(stateEntries(state, ["view", "filters"]).filter(([k]) => k === "compare")).toHaveLength(2);
    // The compare form sends its own tick boxes: its hidden fields leave the URL's ticks out.
    expect(stateEntries(state, ["compare"]).some(([k]) => k === "compare")).toBe(false);
    // Round trip.
    expect(readShoppingState(new URL(plansHref(state), "http://x").searchParams)).toEqual(state);
  });

  it("the comparison's link holds exactly the plans compared, never twice", () => {
    const state = readShoppingState(q(`${SEARCH}&compare=A1&compare=B2&compare=C3&compare=D4`));
    const href = compareHref(state, ["A1", "C3"]);
    expect(href.startsWith("/plans/compare?")).toBe(true);
    expect(new URL(href, "http://x").searchParams.getAll("compare")).toEqual(["A1", "C3"]);
  });

  it("drops malformed ids and keeps at most MAX_COMPARE_TICKS", () => {
    expect(compareIdsOf(q("compare=<script>&compare=10303tx0030001&compare=a%20b"))).toEqual(["10303TX0030001"]);
    const many = Array.from({ length: 15 }, (_, i) => `compare=P${i}`).join("&");
    expect(compareIdsOf(q(many))).toHaveLength(MAX_COMPARE_TICKS);
    expect(MAX_COMPARE_TICKS).toBeGreaterThan(COMPARE_MAX);
  });

  it("a tick adds at the end, an untick removes, a repeat changes nothing", () => {
    expect(withCompareTick([], "a1", true)).toEqual(["A1"]);
    expect(withCompareTick(["A1"], "B2", true)).toEqual(["A1", "B2"]);
    expect(withCompareTick(["A1", "B2"], "A1", true)).toEqual(["A1", "B2"]);
    expect(withCompareTick(["A1", "B2", "C3"], "B2", false)).toEqual(["A1", "C3"]);
    expect(withCompareTick(["A1"], "Z9", false)).toEqual(["A1"]);
    // A fourth tick is kept (the tray says to untick one); the URL's bound is MAX_COMPARE_TICKS.
    expect(withCompareTick(["A1", "B2", "C3"], "D4", true)).toEqual(["A1", "B2", "C3", "D4"]);
    const full = Array.from({ length: MAX_COMPARE_TICKS }, (_, i) => `P${i}`);
    expect(withCompareTick(full, "Q1", true)).toEqual(full);
  });

  it("2 or 3 plans can be compared; 0 or 1 is too few, 4 or more too many", () => {
    expect([0, 1, 2, 3, 4, 5].map(compareProblem)).toEqual(["too_few", "too_few", null, null, "too_many", "too_many"]);
    expect([COMPARE_MIN, COMPARE_MAX]).toEqual([2, 3]);
  });

  it("the inline error names the field and the plan, and says what to do, in English and Spanish", () => {
    const en = tFor("en");
    const es = tFor("es");
    const one = compareErrorOf([{ id: "A1", name: "Blue Silver 1" }]);
    expect(one).toEqual({ problem: "too_few", count: 1, name: "Blue Silver 1" });
    expect(compareErrorWords(en, one!)).toBe(
      "Compare: you ticked 1 plan (Blue Silver 1). Tick “Compare” on 1 or 2 more to compare them side by side.",
    );
    expect(compareErrorWords(es, one!)).toBe(
      "Comparar: marcó 1 plan (Blue Silver 1). Marque “Comparar” en 1 o 2 planes más para compararlos lado a lado.",
    );
    const four = compareErrorOf(["A", "B", "C", "D"].map((id) => ({ id, name: id })));
    expect(four).toEqual({ problem: "too_many", count: 4, name: null });
    expect(compareErrorWords(en, four!)).toBe("Compare: you ticked 4 plans. Compare at most 3 at a time: untick one.");
    const five = compareErrorOf(["A", "B", "C", "D", "E"].map((id) => ({ id, name: id })));
    expect(compareErrorWords(en, five!)).toBe("Compare: you ticked 5 plans. Compare at most 3 at a time: untick 2.");
    expect(compareErrorWords(es, five!)).toBe("Comparar: marcó 5 planes. Compare 3 como máximo a la vez: desmarque 2.");
    expect(compareErrorWords(en, compareErrorOf([])!)).toBe(
      "Compare: tick “Compare” on 2 or 3 plans, then compare them.",
    );
    expect(
      compareErrorOf([
        { id: "A", name: "A" },
        { id: "B", name: "B" },
      ]),
    ).toBeNull();
    expect(compareCountWords(en, 0)).toBe("No plans chosen");
    expect(compareCountWords(en, 1)).toBe("1 plan chosen");
    expect(compareCountWords(en, 3)).toBe("3 plans chosen");
    expect(compareCountWords(es, 3)).toBe("3 planes elegidos");
    expect(compareHintWords(en, 1)).toBe("Tick “Compare” on 1 or 2 more plans.");
    expect(compareHintWords(en, 4)).toBe("Untick 1 plan to compare.");
    expect(compareHintWords(en, 5)).toBe("Untick 2 plans to compare.");
  });

  it("a tick alone leaves the list as it was (the page is not priced again); any other change does not", () => {
    expect(sameListExceptTicks(q(`${SEARCH}&compare=A1`), q(`${SEARCH}&compare=A1&compare=B2`))).toBe(true);
    expect(sameListExceptTicks(q(`${SEARCH}&compare=A1`), q(`${SEARCH}`))).toBe(true);
    expect(sameListExceptTicks(q(`${SEARCH}&compare=A1`), q(`${SEARCH}&sort=moop&compare=A1`))).toBe(false);
    expect(sameListExceptTicks(q(`${SEARCH}&metal=Gold`), q(`${SEARCH}&metal=Silver`))).toBe(false);
  });
});

describe("the sort-and-filter form is drawn from the URL", () => {
  it("gives every control of the form its value from the state, with the list's defaults where the URL is silent", () => {
    const values = controlValues(readShoppingState(q(SEARCH)), { sort: "premium", usage: "medium" });
    expect(values.get("sort")).toEqual(["premium"]);
    expect(values.get("usage")).toEqual(["medium"]);
    // Every filter's control is named, so a value left from before is cleared, not kept.
    for (const key of ["metal", "type", "issuer", "hsa", "standardized", "max_premium", "max_deductible"])
      expect(values.get(key), key).toEqual([]);
  });

  it("after Back to a URL, the controls take that URL's values, not those of the page left", () => {
    const before = readShoppingState(q(`${SEARCH}&sort=deductible&metal=Silver&metal=Gold&hsa=1&max_premium=300`));
    const values = controlValues(before, { sort: "premium", usage: "medium" });
    expect(values.get("sort")).toEqual(["deductible"]);
    expect(values.get("metal")).toEqual(["Silver", "Gold"]);
    expect(values.get("hsa")).toEqual(["1"]);
    expect(values.get("max_premium")).toEqual(["300"]);
    // Only the form's own controls: the place, household, drugs and ticks are hidden fields it leaves alone.
    expect([...values.keys()].some((k) => ["zip", "age", "drug", "compare"].includes(k))).toBe(false);
  });
});
