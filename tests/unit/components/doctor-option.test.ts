import { describe, expect, it } from "vitest";
import { doctorOption, providerPlace } from "../../../app/components/plans/picker";

/** Issue 17 item 6: enough in each doctor suggestion to tell two Dr. Smiths apart. */
describe("a doctor suggestion's detail", () => {
  it("has the specialty, then street, city and state; the accepting value is kept for the page's words", () => {
    const option = doctorOption({
      npi: "1480000003",
      name: "Tobias  Keiko Pembrook MD",
      type: "Individual",
      specialties: ["Endocrinology"],
      accepting: "accepting",
      address: { street: "430 Prairie Wind Rd", city: "Carrollton", state: "TX", zip: "75007" },
    });
    expect(option).toEqual({
      code: "1480000003",
      name: "Tobias Keiko Pembrook MD",
      detail: "Endocrinology · 430 Prairie Wind Rd, Carrollton, TX",
      accepting: "accepting",
    });
  });

  it("names a facility's kind, and says nothing of a place upstream did not give", () => {
    const option = doctorOption({
      npi: "1000000046",
      name: "Avery Family Medicine Group",
      type: "Group",
      specialties: [],
    });
    expect(option.detail).toBe("Group");
    expect(option.accepting).toBeNull();
    expect(providerPlace(null)).toBe("");
    expect(providerPlace({ street: "", city: "Dallas", state: "TX", zip: "75201" })).toBe("Dallas, TX");
  });
});
