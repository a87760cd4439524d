import { describe, expect, it } from "vitest";
import { nearestFirst } from "../../../app/domain/coverage-suggestions";
import { fakeMiles, PROVIDER_SEARCH_PAGE_SIZE, providersSearch } from "../../../mocks/cms-api/handlers";
import type { FakeDataset, FakeProvider } from "../../../mocks/cms-api/dataset";

/** Issue 31 item 9: provider search keeps upstream's paging and distance, nearest first. */

describe("nearestFirst", () => {
  it("orders by distance where given (a provider 0 miles away before one 2 miles away), then the rest in their order", () => {
    const list = [
      { npi: "a", distance: 2 },
      { npi: "g1", distance: null },
      { npi: "b", distance: 0 },
      { npi: "c", distance: 2 },
      { npi: "g2", distance: null },
      { npi: "d", distance: 0.5 },
    ];
    expect(nearestFirst(list).map((p) => p.npi)).toEqual(["b", "d", "a", "c", "g1", "g2"]);
    expect(list.map((p) => p.npi)).toEqual(["a", "g1", "b", "c", "g2", "d"]); // not changed in place
  });
});

function provider(i: number, zip: string): FakeProvider {
  return {
    npi: String(1_500_000_000 + i),
    kind: "Individual",
    name: `Doctor Example ${String(i).padStart(2, "0")}`,
    specialties: ["Family Medicine"],
    facilityTypes: [],
    accepting: "accepting",
    gender: "Female",
    languages: ["English"],
    addresses: [{ street1: `${i} Main St`, street2: "", city: "Dallas", state: "TX", zip }],
    plans: new Map(),
  };
}

describe("the fake's provider search, as the recorded live answers", () => {
  const providers = Array.from({ length: 30 }, (_, i) => provider(i, i % 3 === 0 ? "75201" : "75204"));
  const ds = { providers, zipCounties: new Map() } as unknown as FakeDataset;
  const search = (query: string) =>
    providersSearch(ds, new URLSearchParams(query)) as {
      status: number;
      body: { providers: Array<{ provider: Record<string, unknown>; distance: number }>; total: number };
    };

  it("answers 25 a page from offset, with the total over all pages", () => {
    const first = search("q=example&zipcode=75201&type=Individual");
    expect(first.body.total).toBe(30);
    expect(first.body.providers).toHaveLength(PROVIDER_SEARCH_PAGE_SIZE);
    const second = search("q=example&zipcode=75201&type=Individual&offset=25");
    expect(second.body.total).toBe(30);
    expect(second.body.providers).toHaveLength(5);
    const npis = [...first.body.providers, ...second.body.providers].map((n) => n.provider.npi);
    expect(new Set(npis).size).toBe(30);
  });

  it("sends the live field names only (provider_type, no type) and each address's distance in miles", () => {
    for (const item of search("q=example&zipcode=75201&type=Individual").body.providers) {
      expect(item.provider.provider_type).toBe("Individual");
      expect(Object.keys(item.provider)).not.toContain("type");
      expect(typeof item.distance).toBe("number");
    }
    expect(fakeMiles("75201", "75201")).toBe(0);
    expect(fakeMiles("75201", "75204")).toBeGreaterThan(0);
    expect(fakeMiles("75201", "78701")).toBeGreaterThan(fakeMiles("75201", "75204"));
  });

  it("keeps its own match order, not nearest first (as live): the service orders by distance", () => {
    const miles = search("q=example&zipcode=75201&type=Individual").body.providers.map((n) => n.distance);
    expect(miles).not.toEqual([...miles].sort((a, b) => a - b));
  });
});
