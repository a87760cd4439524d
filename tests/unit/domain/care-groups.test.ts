import { describe, expect, it } from "vitest";
import { CARE_GROUPS, careGroupOf, groupByCare } from "../../../app/domain/care-groups";
import { benefitRows } from "../../../app/server/pages/benefit-table.server";
import type { BenefitDetail } from "../../../app/server/plan-store/plan-store.server";

/** Issue 28 item 4: benefits by kind of care, in one fixed order, from the public-use files' standard names. */
describe("care groups", () => {
  it("have the fixed order doctor visits, drugs, hospital, emergency, maternity, children, other", () => {
    expect(CARE_GROUPS).toEqual(["doctor_visits", "drugs", "hospital", "emergency", "maternity", "children", "other"]);
  });

  it.each([
    ["Primary Care Visit to Treat an Injury or Illness", "doctor_visits"],
    ["Specialist Visit", "doctor_visits"],
    ["Preventive Care/Screening/Immunization", "doctor_visits"],
    ["Generic Drugs", "drugs"],
    ["Specialty Drugs", "drugs"],
    ["Inpatient Hospital Services (e.g., Hospital Stay)", "hospital"],
    ["Outpatient Surgery Physician/Surgical Services", "hospital"],
    ["Emergency Room Services", "emergency"],
    ["Urgent Care Centers or Facilities", "emergency"],
    ["Emergency Transportation/Ambulance", "emergency"],
    ["Delivery and All Inpatient Services for Maternity Care", "maternity"],
    ["Prenatal and Postnatal Care", "maternity"],
    ["Well Baby Visits and Care", "children"],
    ["Dental Check-Up for Children", "children"],
    ["Routine Eye Exam for Children", "children"],
    ["Acupuncture", "other"],
    ["An insurer's own benefit", "other"],
  ])("%s → %s", (name, group) => {
    expect(careGroupOf(name)).toBe(group);
  });

  it("puts items in the groups' order, keeping their order within a group, leaving empty groups out", () => {
    const names = ["Acupuncture", "Specialist Visit", "Generic Drugs", "Emergency Room Services", "Primary Care Visit"];
    expect(groupByCare(names, (n) => n)).toEqual([
      { group: "doctor_visits", items: ["Specialist Visit", "Primary Care Visit"] },
      { group: "drugs", items: ["Generic Drugs"] },
      { group: "emergency", items: ["Emergency Room Services"] },
      { group: "other", items: ["Acupuncture"] },
    ]);
  });

  it("orders the plan page's benefit rows by group, each row naming its group (Spanish names kept apart from the grouping)", () => {
    const detail = (name: string): BenefitDetail =>
      ({ name, covered: true, inNetwork: undefined, outOfNetwork: undefined }) as unknown as BenefitDetail;
    const rows = benefitRows(["X-rays and Diagnostic Imaging", "Generic Drugs", "Specialist Visit"].map(detail), "es");
    expect(rows.map((r) => r.group)).toEqual(["doctor_visits", "drugs", "other"]);
    expect(rows[0].name).not.toBe("Specialist Visit");
  });
});
