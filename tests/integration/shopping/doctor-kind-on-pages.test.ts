import { describe, expect, it } from "vitest";
import { doctorOption, type ProviderSuggestionView } from "../../../app/components/plans/picker-options";
import { plansHref, readShoppingState, withDoctor } from "../../../app/lib/shopping-url";
import { searchDoctors } from "../../../app/server/pages/page-parts.server";
import { planDetailPage } from "../../../app/server/pages/plan-detail-page.server";
import { pagesOverFakeUpstream } from "../../helpers/in-process-pages";

/**
 * A doctor chosen on the pages is priced as the search answered them (decision 490): a primary care
 * doctor's visits as primary care visits, through `pcp=<NPI>` in the URL. Before, every doctor
 * chosen on a page was priced as a specialist, because the URL held only the NPI and the name.
 *
 * Bluebonnet Silver Standard (10101TX0010004), Dallas, one adult at $36,000: 230 % of the 2025
 * poverty line for one ($15,650), so its 73 % CSR variant (-04), whose BenCS rows read "Primary
 * Care Visit to Treat an Injury or Illness" $30 copay and "Specialist Visit" $55 copay, neither
 * after the deductible. Marcus Avery Pembrook (NPI 1480000144, Pediatrics) is in issuer 10101's
 * network in the sample files.
 */
pagesOverFakeUpstream("doctor-kind-key");
const PLACE = "zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self";
const PEDIATRICIAN = "1480000144";

async function doctorsOnPlanPage(query: string) {
  const page = await planDetailPage("10101TX0010004", new URL(`http://localhost/plans/10101TX0010004?${query}`));
  return page.price?.my_yearly_cost?.parts.doctors ?? [];
}

describe("a doctor chosen on the pages is priced as primary care or specialist", () => {
  it("the doctor search marks a pediatrician, and only them, as primary care in the link that adds them", async () => {
    const found = await searchDoctors("Pembrook", "75201");
    const providers = (found.answer?.providers ?? []) as ProviderSuggestionView[];
    const options = providers.map(doctorOption);
    const pediatrician = options.find((o) => o.code === PEDIATRICIAN);
    expect(pediatrician?.primaryCare).toBe(true);
    const endocrinologist = options.find((o) => o.code === "1480000003");
    expect(endocrinologist?.primaryCare).toBeUndefined();

    const state = readShoppingState(new URLSearchParams(PLACE));
    const added = new URL(plansHref(withDoctor(state, pediatrician!)), "http://localhost");
    expect(added.searchParams.getAll("npi")).toEqual([`${PEDIATRICIAN}:${pediatrician!.name}`]);
    expect(added.searchParams.getAll("pcp")).toEqual([PEDIATRICIAN]);
    const other = new URL(plansHref(withDoctor(state, endocrinologist!)), "http://localhost");
    expect(other.searchParams.getAll("pcp")).toEqual([]);
  });

  it("marked primary care: 3 visits at the $30 primary care copay = $90 for the year", async () => {
    const [doctor] = await doctorsOnPlanPage(`${PLACE}&npi=${PEDIATRICIAN}:Marcus%20Pembrook&pcp=${PEDIATRICIAN}`);
    expect(doctor).toMatchObject({ npi: PEDIATRICIAN, in_network: true, kind: "primary", visits_per_year: 3 });
    expect(doctor!.yearly_cost).toBe(3 * 30);
  });

  it("not marked (an old link, or a specialist): 4 visits at the $55 specialist copay = $220", async () => {
    const [doctor] = await doctorsOnPlanPage(`${PLACE}&npi=${PEDIATRICIAN}:Marcus%20Pembrook`);
    expect(doctor).toMatchObject({ npi: PEDIATRICIAN, kind: "specialist", visits_per_year: 4 });
    expect(doctor!.yearly_cost).toBe(4 * 55);
  });

  it("a pcp mark for a doctor not chosen is dropped, and the mark survives the round trip", async () => {
    const state = readShoppingState(
      new URLSearchParams(`${PLACE}&npi=${PEDIATRICIAN}:M&pcp=1480000003&pcp=${PEDIATRICIAN}`),
    );
    expect(state.doctors).toEqual([{ code: PEDIATRICIAN, name: "M", primaryCare: true }]);
    const again = new URL(plansHref(state), "http://localhost");
    expect(again.searchParams.getAll("pcp")).toEqual([PEDIATRICIAN]);
  });
});
