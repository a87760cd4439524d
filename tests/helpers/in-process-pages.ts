import { afterAll, beforeAll } from "vitest";
import { resetEnvForTests } from "../../app/server/platform/env.server";
import { resetPlanStoreForTests } from "../../app/server/plan-store/plan-store.server";
import { resetUpstreamClientForTests } from "../../app/server/upstream/client.server";
import { startFakeUpstream, type FakeUpstream } from "../../mocks/cms-api/index";
import { TEST_PLAN_STORE } from "./server";

/**
 * Page modules called in process over the sample plan store, with the CMS API
 * fake on loopback as upstream (key `apiKey`): registers the suite's
 * beforeAll/afterAll and answers the running fake.
 */
export function pagesOverFakeUpstream(apiKey: string): { readonly fake: FakeUpstream } {
  let fake: FakeUpstream | undefined;
  beforeAll(async () => {
    fake = await startFakeUpstream({ apiKey });
    Object.assign(process.env, {
      PLAN_STORE_PATH: TEST_PLAN_STORE,
      MARKETPLACE_API_KEY: apiKey,
      MARKETPLACE_API_BASE_URL: fake.url,
      UPSTREAM_IS_SAMPLE: "1",
      LOG_LEVEL: "silent",
    });
    resetEnvForTests();
    resetPlanStoreForTests();
    resetUpstreamClientForTests();
  });
  afterAll(async () => {
    resetPlanStoreForTests();
    await fake?.close();
  });
  return {
    get fake() {
      if (!fake) throw new Error("the fake upstream is not started yet (use it inside a test)");
      return fake;
    },
  };
}
