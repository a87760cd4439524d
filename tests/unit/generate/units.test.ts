/** Small pieces of the generator: value formats, NPI check digits, marketplace types by year, PRNG determinism. */
import { describe, expect, it } from "vitest";
import { variantDesign } from "../../../seed/generate/design";
import { buildSampleWorld } from "../../../seed/generate/sample-world";
import { csvField, dollars, familyAmount, mulMilliCents, rateAmount } from "../../../seed/generate/output";
import { Prng } from "../../../seed/generate/prng";
import { ageCurveMilli, RATE_AGE_LABELS } from "../../../seed/generate/reference";
import { stateRows } from "../../../seed/generate/states";
import { isValidNpi, npiCheckDigit } from "../../../seed/generate/write-mr";

describe("value formats of the public files", () => {
  it("writes money as the PY2026 Plan Attributes do", () => {
    expect(dollars(6000)).toBe("$6,000");
    expect(dollars(12000)).toBe("$12,000");
    expect(dollars(250)).toBe("$250");
    expect(dollars(36.5)).toBe("$36.50");
    expect(familyAmount(12000, "person")).toBe("$12000 per person");
    expect(familyAmount(24000, "group")).toBe("$24000 per group");
  });

  it("writes Rate PUF amounts as plain decimals from cents", () => {
    expect(rateAmount(29840)).toBe("298.4");
    expect(rateAmount(6500)).toBe("65.0");
    expect(rateAmount(50392)).toBe("503.92");
    expect(rateAmount(999999)).toBe("9999.99");
    expect(rateAmount(5)).toBe("0.05");
  });

  it("rounds cents × factor half up without float drift", () => {
    // 416.13 × 0.765 = 318.33945 → 318.34
    expect(mulMilliCents(41613, 765)).toBe(31834);
    // 100.10 × 1.005 = 100.6005 → 100.60
    expect(mulMilliCents(10010, 1005)).toBe(10060);
    // 0.10 × 1.005 = 0.1005 → 0.10
    expect(mulMilliCents(10, 1005)).toBe(10);
    // exactly half a cent rounds up: 0.01 × 1.5 = 0.015 → 0.02
    expect(mulMilliCents(1, 1500)).toBe(2);
  });

  it("quotes CSV fields only when needed", () => {
    expect(csvField("Inpatient Hospital Services (e.g., Hospital Stay)")).toBe(
      '"Inpatient Hospital Services (e.g., Hospital Stay)"',
    );
    expect(csvField('say "no"')).toBe('"say ""no"""');
    expect(csvField("$6,000 ")).toBe('"$6,000 "');
    expect(csvField("No Charge")).toBe("No Charge");
  });
});

describe("NPIs", () => {
  it("computes the check digit of the CMS example NPI 1234567893", () => {
    expect(npiCheckDigit("123456789")).toBe(3);
    expect(isValidNpi("1234567893")).toBe(true);
    expect(isValidNpi("1234567890")).toBe(false);
  });
});

describe("age curves", () => {
  it("expand the parameter file's keys to the 51 Rate PUF labels", () => {
    expect(RATE_AGE_LABELS.length).toBe(51);
    const federal = ageCurveMilli("TX");
    expect([
      federal.get("0-14"),
      federal.get("21"),
      federal.get("24"),
      federal.get("40"),
      federal.get("64 and over"),
    ]).toEqual([765, 1000, 1000, 1278, 3000]);
    const utah = ageCurveMilli("UT");
    expect([utah.get("0-14"), utah.get("20"), utah.get("22"), utah.get("30"), utah.get("59"), utah.get("63")]).toEqual([
      793, 793, 1050, 1390, 3000, 3000,
    ]);
    const alabama = ageCurveMilli("AL");
    expect([alabama.get("15"), alabama.get("20"), alabama.get("21")]).toEqual([635, 635, 1000]);
  });
});

describe("marketplace types by plan year", () => {
  it("keeps Oregon on the federal platform in 2026 and moves it to its own in 2027", () => {
    const y2026 = Object.fromEntries(stateRows(2026).map((s) => [s.code, s]));
    const y2027 = Object.fromEntries(stateRows(2027).map((s) => [s.code, s]));
    expect([y2026.OR.exchangeKind, y2026.OR.ownedData]).toEqual(["sbe_federal_platform", true]);
    expect([y2027.OR.exchangeKind, y2027.OR.ownedData, y2027.OR.marketplaceName]).toEqual([
      "sbe",
      false,
      "Oregon Health Insurance Marketplace",
    ]);
    expect(y2027.AR.exchangeKind).toBe("sbe_federal_platform");
    expect(stateRows(2026).filter((s) => s.ownedData).length).toBe(31);
    expect(stateRows(2027).filter((s) => s.ownedData).length).toBe(30);
  });
});

describe("CSR variants", () => {
  it("are strictly richer than the standard silver plan for every sample silver plan", () => {
    const world = buildSampleWorld();
    for (const plan of world.plans.filter((p) => p.metal === "Silver" && p.market === "Individual")) {
      const [v01, v04, v05, v06] = ["01", "04", "05", "06"].map((s) => variantDesign(plan, s, 12000));
      expect(v04.deductible).toBeLessThan(v01.deductible);
      expect(v05.deductible).toBeLessThan(v04.deductible);
      expect(v06.deductible).toBeLessThan(v05.deductible);
      expect(v04.moop).toBeLessThan(v01.moop);
      expect(v04.moop).toBeLessThanOrEqual(9600); // 45 CFR 156.420(a)(1): 4/5 of 12,000
      expect(v06.moop).toBeLessThan(v05.moop);
      expect(v06.coinsurance).toBeLessThan(v01.coinsurance);
    }
  });
});

describe("PRNG", () => {
  it("repeats a stream for a seed and separates forks", () => {
    const a = new Prng("x");
    const b = new Prng("x");
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(seqA);
    expect(new Prng("x").fork("one").next()).not.toBe(new Prng("x").fork("two").next());
  });
});
