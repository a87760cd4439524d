import { describe, expect, it } from "vitest";
import { distinctDrugSuggestions, mergeProviderSuggestions } from "../../../app/domain/coverage-suggestions";

const p = (npi: string, name: string) => ({ npi, name });

describe("mergeProviderSuggestions", () => {
  it("lists Individual, then Facility, then Group, each in upstream order", () => {
    const merged = mergeProviderSuggestions({
      Group: [p("3000000001", "Group A")],
      Individual: [p("1000000002", "Doctor B"), p("1000000001", "Doctor A")],
      Facility: [p("2000000001", "Hospital A")],
    });
    expect(merged.map((m) => [m.type, m.npi])).toEqual([
      ["Individual", "1000000002"],
      ["Individual", "1000000001"],
      ["Facility", "2000000001"],
      ["Group", "3000000001"],
    ]);
  });

  it("drops an NPI already listed under an earlier type (first appearance wins)", () => {
    const merged = mergeProviderSuggestions({
      Individual: [p("1000000004", "Avery Example")],
      Facility: [p("1000000046", "Avery Family Medicine Group"), p("1000000004", "Avery Example")],
      Group: [p("1000000046", "Avery Family Medicine Group")],
    });
    expect(merged.map((m) => [m.type, m.npi])).toEqual([
      ["Individual", "1000000004"],
      ["Facility", "1000000046"],
    ]);
  });

  it("gives the same list whatever order the answers are given in", () => {
    const individual = [p("1", "a")];
    const facility = [p("2", "b")];
    const group = [p("3", "c")];
    const one = mergeProviderSuggestions({ Individual: individual, Facility: facility, Group: group });
    const two = mergeProviderSuggestions({ Group: group, Facility: facility, Individual: individual });
    expect(two).toEqual(one);
  });

  it("keeps the other types when one is missing, and caps each type", () => {
    const many = Array.from({ length: 30 }, (_, i) => p(String(1000000000 + i), `Doctor ${i}`));
    const merged = mergeProviderSuggestions({ Individual: many, Group: [p("3000000001", "Group A")] }, 20);
    expect(merged.filter((m) => m.type === "Individual")).toHaveLength(20);
    expect(merged.at(-1)).toMatchObject({ type: "Group", npi: "3000000001" });
  });
});

describe("distinctDrugSuggestions", () => {
  it("keeps upstream order, drops repeated RxCUIs and caps the list", () => {
    const list = [{ rxcui: "2" }, { rxcui: "1" }, { rxcui: "2" }, { rxcui: "3" }];
    expect(distinctDrugSuggestions(list).map((d) => d.rxcui)).toEqual(["2", "1", "3"]);
    expect(distinctDrugSuggestions(list, 2).map((d) => d.rxcui)).toEqual(["2", "1"]);
  });
});
