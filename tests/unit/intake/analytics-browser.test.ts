// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed)
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import {
  captureAllowed,
  initAnalytics,
  scrubBrowserEvent,
  stripQuery,
  type PostHogClient,
} from "../../../app/components/analytics.client";

const OPT_OUT = ["staging.marketplace.example"];
const TOKEN = "phc_test_token";

/** A recording stand-in for posthog-js, with its opt-in state. */
function fakePostHog() {
  const calls: string[] = [];
  let optedOut = false;
  const captured: { event: string; properties?: Record<string, unknown> }[] = [];
  let initConfig: Record<string, unknown> | undefined;
  const client: PostHogClient = {
    init: (token, config) => {
      calls.push(`init:${token}`);
      initConfig = config;
    },
    capture: (event, properties) => {
      if (!optedOut) captured.push({ event, properties });
    },
    opt_in_capturing: () => {
      calls.push("opt_in");
      optedOut = false;
    },
    opt_out_capturing: () => {
      calls.push("opt_out");
      optedOut = true;
    },
    has_opted_out_capturing: () => optedOut,
  };
  let loads = 0;
  return {
    client,
    calls,
    captured,
    config: () => initConfig,
    loads: () => loads,
    load: async () => {
      loads++;
      return client;
    },
  };
}

function page(url: string): Window {
  return new JSDOM("<!doctype html><p>page</p>", { url }).window as Window;
}

/** Client-side navigation the way the router does it, then the app's update() call. */
async function navigate(win: Window, controller: ReturnType<typeof initAnalytics>, path: string) {
  win.history.pushState({}, "", path);
  await controller.update(win.location.href);
}

describe("captureAllowed", () => {
  it.each([
    ["https://marketplace.example/plans", true],
    ["https://marketplace.example/plans?no_track=1", false],
    ["https://marketplace.example/plans?zip=10001&no_track=1&income=40000", false],
    ["https://marketplace.example/plans?no_track=0", true],
    ["https://marketplace.example/plans?no_track=true", true],
    ["https://staging.marketplace.example/plans", false],
    ["https://STAGING.marketplace.example:8443/", false],
    ["https://staging.marketplace.example/plans?no_track=0", false],
  ])("%s -> %s", (url, allowed) => {
    expect(captureAllowed(url, OPT_OUT)).toBe(allowed);
  });
});

describe("initAnalytics", () => {
  it("on an ordinary host, loads posthog-js lazily and captures a pageview without the query string", async () => {
    const win = page("https://marketplace.example/plans?zip=10001&income=52000&ages=34,36");
    const ph = fakePostHog();
    const controller = initAnalytics(
      { token: TOKEN, host: "https://us.i.posthog.com", optOutHosts: OPT_OUT },
      { window: win, load: ph.load },
    );
    await controller.update();
    expect(ph.loads()).toBe(1);
    expect(ph.calls[0]).toBe(`init:${TOKEN}`);
    expect(ph.config()).toMatchObject({
      api_host: "https://us.i.posthog.com",
      autocapture: false,
      capture_pageview: false,
      disable_session_recording: true,
    });
    expect(ph.captured).toEqual([
      { event: "$pageview", properties: { $current_url: "https://marketplace.example/plans", $pathname: "/plans" } },
    ]);
    expect(JSON.stringify(ph.captured)).not.toMatch(/income|52000|ages/);
    controller.dispose();
  });

  it("with no_track=1 captures nothing and does not even load the library; dropping the parameter turns capture on without a reload", async () => {
    const win = page("https://marketplace.example/plans?no_track=1");
    const ph = fakePostHog();
    const controller = initAnalytics(
      { token: TOKEN, host: "https://ph.example", optOutHosts: OPT_OUT },
      { window: win, load: ph.load },
    );
    await controller.update();
    expect(ph.loads()).toBe(0);
    expect(controller.state).toEqual({ loaded: false, capturing: false });

    await navigate(win, controller, "/plans/12345NY0010001");
    expect(ph.loads()).toBe(1);
    expect(controller.state).toEqual({ loaded: true, capturing: true });
    expect(ph.captured.map((c) => c.properties?.$pathname)).toEqual(["/plans/12345NY0010001"]);

    // Adding it again opts out; removing it (back button) opts back in.
    await navigate(win, controller, "/updates?no_track=1");
    expect(ph.calls.at(-1)).toBe("opt_out");
    expect(controller.state.capturing).toBe(false);
    win.history.pushState({}, "", "/agents");
    win.dispatchEvent(new (win as unknown as { PopStateEvent: typeof PopStateEvent }).PopStateEvent("popstate"));
    await controller.update();
    expect(ph.calls).toContain("opt_in");
    expect(ph.captured.map((c) => c.properties?.$pathname)).toEqual(["/plans/12345NY0010001", "/agents"]);
    controller.dispose();
  });

  it("on the opted-out (staging) host never loads or captures, and the URL parameter cannot turn it on", async () => {
    const win = page("https://staging.marketplace.example/plans?no_track=1");
    const ph = fakePostHog();
    const controller = initAnalytics(
      { token: TOKEN, host: "https://ph.example", optOutHosts: OPT_OUT },
      { window: win, load: ph.load },
    );
    await controller.update();
    await navigate(win, controller, "/plans");
    await navigate(win, controller, "/plans?no_track=0");
    expect(ph.loads()).toBe(0);
    expect(ph.captured).toEqual([]);
    expect(controller.state).toEqual({ loaded: false, capturing: false });
  });

  it("does nothing without a token", async () => {
    const win = page("https://marketplace.example/");
    const ph = fakePostHog();
    const controller = initAnalytics(
      { token: null, host: "https://ph.example", optOutHosts: [] },
      { window: win, load: ph.load },
    );
    await controller.update();
    expect(ph.loads()).toBe(0);
  });
});

describe("scrubBrowserEvent (posthog-js before_send)", () => {
  it("strips query strings from URL properties and drops personal properties", () => {
    const event = scrubBrowserEvent({
      event: "plan_viewed",
      properties: {
        $current_url: "https://marketplace.example/plans?income=40000&ages=30#top",
        $referrer: "https://marketplace.example/?zip=10001&email=a%40b.com",
        $pathname: "/plans",
        income: 40000,
        applicant_age: 30,
        email: "a@b.com",
        note: "write to me at someone@example.com",
        plan_id: "12345NY0010001",
        metal_level: "Silver",
      },
      $set: { email: "a@b.com", plan_count: 3 },
    });
    expect(event.properties).toEqual({
      $current_url: "https://marketplace.example/plans",
      $referrer: "https://marketplace.example/",
      $pathname: "/plans",
      plan_id: "12345NY0010001",
      metal_level: "Silver",
    });
    expect(event.$set).toEqual({ plan_count: 3 });
    expect(stripQuery("/relative?x=1")).toBe("/relative");
  });
});
