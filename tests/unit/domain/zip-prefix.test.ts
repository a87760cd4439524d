import { describe, expect, it } from "vitest";
import { STATES_AND_DC } from "../../../app/domain/us-states";
import { stateForZipPrefix } from "../../../app/domain/zip-prefix";

describe("stateForZipPrefix (USPS DMM L002)", () => {
  it.each([
    ["30303", "GA"], // Atlanta: PO-box ZIP absent from the HUD crosswalk
    ["74127", "OK"], // Tulsa
    ["11201", "NY"],
    ["10001", "NY"],
    ["00501", "NY"], // Holtsville IRS
    ["05501", "MA"], // Andover, MA inside Vermont's range
    ["05601", "VT"],
    ["88510", "TX"], // El Paso inside New Mexico's neighbourhood
    ["87101", "NM"],
    ["73301", "TX"], // Austin IRS inside Oklahoma's 730–749
    ["99501", "AK"],
    ["96813", "HI"],
    ["20001", "DC"],
    ["22201", "VA"],
    ["39701", "MS"],
    ["39901", "GA"],
  ])("%s is in %s", (zip, state) => {
    expect(stateForZipPrefix(zip)).toBe(state);
  });

  it.each(["00001", "00401", "21301", "26901", "34301", "99999x", "1234", "abcde"])(
    "%s has no state (prefix not assigned, or not a ZIP)",
    (zip) => {
      expect(stateForZipPrefix(zip)).toBeUndefined();
    },
  );

  it("assigns every 50-state and DC prefix to exactly one code, in order", () => {
    const seen = new Map<number, string>();
    for (let prefix = 0; prefix <= 999; prefix++) {
      const state = stateForZipPrefix(`${String(prefix).padStart(3, "0")}01`);
      if (state) seen.set(prefix, state);
    }
    const states = new Set(seen.values());
    for (const s of STATES_AND_DC) {
      expect(states.has(s), s).toBe(true);
    }
  });
});
