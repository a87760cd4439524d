// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://marketplace.example/plans?zip=10001&income=52000&ages=34"}
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initAnalytics } from "../../../app/components/analytics.client";
import { startFakePostHog, type FakePostHog } from "../../fakes/posthog";

/** The real posthog-js, loaded lazily by initAnalytics, talking to a fake ingestion host. */

let fake: FakePostHog;
beforeAll(async () => {
  fake = await startFakePostHog();
});
afterAll(async () => {
  await fake.close();
});

describe("initAnalytics with the real posthog-js", () => {
  it("sends a pageview without the query string, and nothing while no_track=1 is in the URL", async () => {
    const controller = initAnalytics({
      token: "phc_browser_test",
      host: fake.url,
      optOutHosts: ["staging.marketplace.example"],
    });
    await controller.update();
    expect(controller.state).toEqual({ loaded: true, capturing: true });
    const events = await fake.waitForEvents(1, 10_000);
    const pageview = events.find((e) => e.event === "$pageview")!;
    expect(pageview.properties.$current_url).toBe("https://marketplace.example/plans");
    const everything = fake.bodies.join("\n");
    expect(everything).toContain("$pageview");
    expect(everything).not.toMatch(/52000|income|ages=|zip=/);

    window.history.pushState({}, "", "/updates?no_track=1");
    await controller.update();
    expect(controller.state.capturing).toBe(false);
    controller.dispose();
  });
});
