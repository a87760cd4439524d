import { describe, expect, it } from "vitest";
import {
  compareHref,
  compareIdsOf,
  MAX_SELECTIONS,
  parseSelection,
  planHref,
  plansHref,
  proposedRelationship,
  readShoppingState,
  stateEntries,
  withDrug,
} from "../../../app/lib/shopping-url";

const q = (text: string) => new URLSearchParams(text);

describe("reading the shopping state from a URL", () => {
  it("reads one group of age/tobacco/pregnant/rel per person, in order", () => {
    const state = readShoppingState(
      q(
        "zip=75201&county=48113&state=tx&income=52000&age=40&tobacco=yes&pregnant=no&rel=self&age=38&tobacco=no&pregnant=yes&rel=spouse&age=9&tobacco=no&pregnant=no&rel=child",
      ),
    );
    expect(state.state).toBe("TX");
    expect(state.people).toEqual([
      { age: "40", tobacco: true, pregnant: false, relationship: "self" },
      { age: "38", tobacco: false, pregnant: true, relationship: "spouse" },
      { age: "9", tobacco: false, pregnant: false, relationship: "child" },
    ]);
  });

  it("fills in only what is safe: the first person is the subscriber; nobody else's relationship is guessed", () => {
    const state = readShoppingState(q("zip=75201&age=35&age=33&age=4"));
    expect(state.people.map((p) => [p.relationship, p.tobacco, p.pregnant])).toEqual([
      ["self", false, false],
      ["", false, false],
      ["", false, false],
    ]);
  });

  it("keeps an unchosen relationship in its place and reads no_medicare as person indexes", () => {
    const state = readShoppingState(q("age=70&rel=self&age=40&rel=&age=9&rel=child&no_medicare=0"));
    expect(state.people.map((p) => [p.relationship, p.noMedicare ?? false])).toEqual([
      ["self", true],
      ["", false],
      ["child", false],
    ]);
    const again = readShoppingState(new URLSearchParams(stateEntries(state)));
    expect(again.people).toEqual(state.people);
  });

  it("proposes a relationship from the age (JavaScript): child under 19, otherwise other", () => {
    expect(proposedRelationship("18")).toBe("child");
    expect(proposedRelationship("19")).toBe("other");
    expect(proposedRelationship("")).toBe("");
  });

  it("gives the nth tobacco/pregnant/rel value to the nth person (the form always sends all four per person)", () => {
    const state = readShoppingState(q("age=40&age=38&pregnant=no&pregnant=yes"));
    expect(state.people.map((p) => p.pregnant)).toEqual([false, true]);
  });

  it("never lets a later person claim to be the subscriber", () => {
    const state = readShoppingState(q("age=35&rel=self&age=33&rel=self"));
    expect(state.people[1].relationship).toBe("");
  });

  it("reads drugs and doctors as code:name, dropping malformed codes and repeats, at most ten", () => {
    const state = readShoppingState(
      q("drug=617318:Lipitor%2020%20mg&drug=617318:again&drug=abc:Bad&npi=1480000003:Tobias%20Pembrook&npi=123:short"),
    );
    expect(state.drugs).toEqual([{ code: "617318", name: "Lipitor 20 mg" }]);
    expect(state.doctors).toEqual([{ code: "1480000003", name: "Tobias Pembrook" }]);
    const many = readShoppingState(q(Array.from({ length: 15 }, (_, i) => `drug=${1000 + i}:D${i}`).join("&")));
    expect(many.drugs).toHaveLength(MAX_SELECTIONS);
  });

  it("names a selection by its code when the URL gives no name", () => {
    expect(parseSelection("617318", /^\d+$/)).toEqual({ code: "617318", name: "617318" });
    expect(parseSelection("  617318 :  Lipitor   20 mg ", /^\d+$/)).toEqual({ code: "617318", name: "Lipitor 20 mg" });
  });

  it("reads compare ids from repeated params or one comma-joined list", () => {
    expect(compareIdsOf(q("compare=10303TX0030001&compare=10101tx0010001"))).toEqual([
      "10303TX0030001",
      "10101TX0010001",
    ]);
    expect(compareIdsOf(q("compare=A1,B2,A1"))).toEqual(["A1", "B2"]);
  });
});

describe("writing the canonical URL", () => {
  const url =
    "zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self&usage=high&sort=yearly_cost&metal=Silver&metal=Gold&hsa=1&drug=617318%3ALipitor+20+mg";

  it("round-trips: reading the canonical URL and writing it again gives the same URL", () => {
    const state = readShoppingState(q(url));
    expect(plansHref(state)).toBe(`/plans?${url}`);
    expect(readShoppingState(q(plansHref(state).split("?")[1]))).toEqual(state);
  });

  it("keeps the household in plan and compare links, and adds nothing twice", () => {
    const state = readShoppingState(q(url));
    expect(planHref("10303TX0030003", state)).toBe(`/plans/10303TX0030003?${url}`);
    expect(compareHref(state, ["A", "B"])).toBe(`/plans/compare?${url}&compare=A&compare=B`);
    expect(withDrug(state, { code: "617318", name: "other name" })).toBe(state);
    expect(withDrug(state, { code: "861007", name: "metformin" }).drugs.map((d) => d.code)).toEqual([
      "617318",
      "861007",
    ]);
  });

  it("leaves out the groups a form asks for itself, and keeps a blank person row", () => {
    const state = readShoppingState(q("zip=75201&county=48113&state=TX&income=1&age=35&age="));
    expect(stateEntries(state, ["household"]).map(([k]) => k)).toEqual(["zip", "county", "state"]);
    expect(stateEntries(state, ["place"]).filter(([k]) => k === "age")).toEqual([
      ["age", "35"],
      ["age", ""],
    ]);
  });
});
