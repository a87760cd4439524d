import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as drugsCovered from "../../../app/routes/api.drugs.covered";
import * as providersCovered from "../../../app/routes/api.providers.covered";
import { defaultPlanYear } from "../../../app/domain/plan-year";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { setOwnDataSourceForTests } from "../../../app/server/upstream/lookups.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { callRoute, FIXTURE_DIR, jsonPost, startConfiguredFake } from "./helpers";

// The production path: own rows read from a real plan store, built by the
// seed pipeline from the same fixture the fake upstream serves (the issuers'
// drugs.json / providers.json are the source of both).
const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
let scratch: string;
let fake: FakeUpstream;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "upstream-plan-store-"));
  const storeFile = path.join(scratch, "plan-store.sqlite");
  execFileSync(
    process.execPath, // The fixture has no benefits file: the gate would refuse it; these tests need only its issuer files.
    ["--import", "tsx", "seed/cli.ts", "--source", FIXTURE_DIR, "--out", storeFile, "--allow-incomplete"],
    {
      cwd: REPO_ROOT,
      stdio: "ignore",
    },
  );
  setOwnDataSourceForTests(undefined);
  fake = await startConfiguredFake({ PLAN_STORE_PATH: storeFile });
  resetPlanStoreForTests();
});
afterAll(async () => {
  resetPlanStoreForTests();
  await fake.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("gap-fill from the plan store", () => {
  it("fills drug tiers and PartialCovered from the store's formulary rows, for the shopped year", async () => {
    // No year sent: on and after 1 November 2026 the store's 2027 plans are shopped.
    const { status, body } = await callRoute(
      drugsCovered,
      jsonPost("/api/drugs/covered", { rxcuis: ["617318", "262095"], plan_ids: ["11111TX0010001", "22222TX0020001"] }),
    );
    expect(status).toBe(200);
    // The store holds only 2027, so the shopped year is whatever defaultPlanYear makes of today and [2027].
    expect(body.year).toBe(defaultPlanYear(new Date(), [2027]));
    const byKey = Object.fromEntries(
      body.coverage.map((r: { rxcui: string; plan_id: string }) => [`${r.rxcui}@${r.plan_id}`, r]),
    );
    // mr/11111/drugs.json: Lipitor 20 on 11111TX0010001 is PREFERRED-BRAND with prior authorization.
    expect(byKey["617318@11111TX0010001"]).toMatchObject({
      coverage: "PartialCovered",
      drug_tier: "PREFERRED-BRAND",
      restrictions: { prior_authorization: true },
    });
    // Lipitor 80 there is generic-only: the generic 259255 is GENERIC.
    expect(byKey["262095@11111TX0010001"]).toMatchObject({
      coverage: "GenericCovered",
      generic_rxcui: "259255",
      drug_tier: "GENERIC",
    });
    // mr/22222/drugs.json lists both brands as covered, without restrictions.
    expect(byKey["617318@22222TX0020001"]).toMatchObject({
      coverage: "Covered",
      drug_tier: "PREFERRED-BRAND",
      source: "upstream",
    });
    expect(byKey["262095@22222TX0020001"]).toMatchObject({ coverage: "Covered", drug_tier: "NON-PREFERRED-BRAND" });
  });

  it("fills network tiers from the store's provider-network rows", async () => {
    const { body } = await callRoute(
      providersCovered,
      jsonPost("/api/providers/covered", {
        npis: ["1000000004", "1000000012"],
        plan_ids: ["11111TX0010001", "22222TX0020001"],
        year: 2027,
      }),
    );
    expect(
      body.coverage.map((r: { npi: string; plan_id: string; coverage: string; network_tier: string }) => [
        r.npi,
        r.plan_id,
        r.coverage,
        r.network_tier,
      ]),
    ).toEqual([
      ["1000000004", "11111TX0010001", "Covered", "PREFERRED"],
      ["1000000004", "22222TX0020001", "Covered", "TIER-1"],
      // Listed as PREFERRED and NON-PREFERRED, accepting in some locations.
      ["1000000012", "11111TX0010001", "PartialCovered", "PREFERRED"],
      ["1000000012", "22222TX0020001", "NotCovered", null],
    ]);
  });
});
