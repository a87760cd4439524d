import { describe, expect, it } from "vitest";
import {
  describeCostShare,
  padCode,
  parseDate,
  parseMoney,
  parseRate,
  parseRatingArea,
  parseYesNo,
  stateOfCounty,
} from "../../../db/plan-store-values";

describe("PUF value parsing (raw text kept, number beside it)", () => {
  it("reads dollar amounts in the PUFs' spellings", () => {
    expect(parseMoney("$6,000 ")).toBe(6000);
    expect(parseMoney("$12000 per person")).toBe(12000);
    expect(parseMoney("$24000 per group")).toBe(24000);
    expect(parseMoney("$250 Copay after deductible")).toBe(250);
    expect(parseMoney("$300 Copay per Stay after deductible")).toBe(300);
    expect(parseMoney("No Charge")).toBe(0);
    expect(parseMoney("No Charge after deductible")).toBe(0);
    expect(parseMoney("$0")).toBe(0);
    expect(parseMoney("$2,600")).toBe(2600);
    expect(parseMoney("Not Applicable")).toBeNull();
    expect(parseMoney("per person not applicable")).toBeNull();
    expect(parseMoney("per group not applicable")).toBeNull();
    expect(parseMoney("30.00% Coinsurance after deductible")).toBeNull();
    expect(parseMoney("")).toBeNull();
    expect(parseMoney("Included in Medical")).toBeNull();
  });

  it("reads coinsurance as a fraction", () => {
    expect(parseRate("30.00% Coinsurance after deductible")).toBe(0.3);
    expect(parseRate("50%")).toBe(0.5);
    expect(parseRate("100%")).toBe(1);
    expect(parseRate("0%")).toBe(0);
    expect(parseRate("No Charge after deductible")).toBe(0);
    expect(parseRate("Not Applicable")).toBeNull();
    expect(parseRate("$20")).toBeNull();
  });

  it("describes what a cost-share text says besides its number", () => {
    expect(describeCostShare("No Charge after deductible")).toMatchObject({
      noCharge: true,
      afterDeductible: true,
      notApplicable: false,
    });
    expect(describeCostShare("$40 Copay before deductible")).toMatchObject({ noCharge: false, beforeDeductible: true });
    expect(describeCostShare("Not Applicable")).toMatchObject({ notApplicable: true });
  });

  it("reads flags, dates, rating areas and codes", () => {
    expect([
      parseYesNo("Yes"),
      parseYesNo("no"),
      parseYesNo("Covered"),
      parseYesNo("Not Covered"),
      parseYesNo(""),
    ]).toEqual([true, false, true, false, null]);
    expect(parseDate("2015-08-27 15:13:29")).toBe("2015-08-27");
    expect(parseDate("1/1/2026")).toBe("2026-01-01");
    expect(parseDate("tomorrow")).toBeNull();
    expect(parseRatingArea("Rating Area 7")).toBe(7);
    expect(parseRatingArea("rating area 07")).toBe(7);
    expect(parseRatingArea("12")).toBe(12);
    expect(parseRatingArea("Rating Area 0")).toBeNull();
    expect(parseRatingArea("Area Seven")).toBeNull();
    expect(padCode("4023", 5)).toBe("04023");
    expect(padCode("29027.0", 5)).toBe("29027");
    expect(padCode("480123", 5)).toBeNull();
    expect(stateOfCounty("02020")).toBe("AK");
    expect(stateOfCounty("46121")).toBe("SD");
  });
});
