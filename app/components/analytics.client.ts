import type { BrowserAnalyticsConfig } from "./analytics-config";

/**
 * Browser analytics (posthog-js, loaded lazily). The rules:
 * - on an opted-out host (ANALYTICS_OPT_OUT_HOSTS, the staging host by
 *   default) nothing is ever loaded or captured, whatever the URL says;
 * - elsewhere, `no_track=1` in the URL turns capture off; when a later
 *   navigation drops the parameter, capture comes back on without a reload;
 * - posthog-js is only downloaded once capture is allowed;
 * - what is sent carries no income, age or email address: no autocapture,
 *   page URLs without their query string (where the shopping state lives),
 *   and a last filter on every event (`scrubBrowserEvent`).
 */

export type { BrowserAnalyticsConfig } from "./analytics-config";

/** The part of posthog-js this module uses (a fake stands in for it in tests). */
export interface PostHogClient {
  init(token: string, config: Record<string, unknown>): unknown;
  capture(event: string, properties?: Record<string, unknown>): unknown;
  opt_in_capturing(options?: { captureEventName?: string | null | false }): void;
  opt_out_capturing(): void;
  has_opted_out_capturing(): boolean;
}

export function isOptedOutHost(hostname: string, optOutHosts: readonly string[]): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, "");
  return optOutHosts.some((entry) => entry.trim().toLowerCase().replace(/\.$/, "") === host);
}

/** `no_track=1` anywhere in the query string. */
export function noTrackRequested(url: URL): boolean {
  return url.searchParams.getAll("no_track").includes("1");
}

/** Whether capture is allowed at this URL. */
export function captureAllowed(url: URL | string, optOutHosts: readonly string[]): boolean {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return !isOptedOutHost(parsed.hostname, optOutHosts) && !noTrackRequested(parsed);
}

/** A URL without query string or fragment. */
export function stripQuery(value: unknown): unknown {
  if (typeof value !== "string" || !value) return value;
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return value.split(/[?#]/)[0];
  }
}

const URL_PROPERTIES = [
  "$current_url",
  "$referrer",
  "$initial_referrer",
  "$initial_current_url",
  "$session_entry_url",
  "$prev_pageview_url",
  "$pageview_url",
];
const FORBIDDEN_KEY = /(e-?mail|income|salary|wage|(^|_|\b)ages?($|_|\b)|birth|dob|name|phone|npn|ssn)/i;
// Linear: the scan starts only at an "@" (a leading `[^\s@]+` is quadratic on long text without one).
const EMAIL_VALUE = /[^\s@]@[^\s@]+\.[^\s@]/;

interface CaptureResult {
  event: string;
  properties: Record<string, unknown>;
  $set?: Record<string, unknown>;
  $set_once?: Record<string, unknown>;
}

/** The last filter before anything leaves the browser (posthog-js `before_send`). */
export function scrubBrowserEvent<T extends CaptureResult>(event: T): T {
  const scrub = (properties: Record<string, unknown> | undefined) => {
    if (!properties) return properties;
    const clean: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(properties)) {
      if (!key.startsWith("$") && FORBIDDEN_KEY.test(key)) continue;
      if (URL_PROPERTIES.includes(key) || key.endsWith("_url") || key === "$referrer") {
        clean[key] = stripQuery(value);
        continue;
      }
      if (typeof value === "string" && EMAIL_VALUE.test(value)) continue;
      clean[key] = value;
    }
    return clean;
  };
  return {
    ...event,
    properties: scrub(event.properties) ?? {},
    ...(event.$set ? { $set: scrub(event.$set) } : {}),
    ...(event.$set_once ? { $set_once: scrub(event.$set_once) } : {}),
  };
}

export interface AnalyticsController {
  /** Re-decide for the current (or given) URL; resolves when done. Call after every navigation. */
  update(url?: string): Promise<void>;
  /** What the controller has done so far (for tests and debugging). */
  readonly state: { loaded: boolean; capturing: boolean };
  dispose(): void;
}

export interface AnalyticsDependencies {
  load?: () => Promise<PostHogClient>;
  window?: Window;
}

const noopController: AnalyticsController = {
  update: async () => undefined,
  state: { loaded: false, capturing: false },
  dispose: () => undefined,
};

async function loadPostHog(): Promise<PostHogClient> {
  const module = await import("posthog-js");
  return module.default as unknown as PostHogClient;
}

/**
 * Start browser analytics for this page. Returns a controller whose
 * `update()` the app calls after each client-side navigation; popstate
 * (back/forward) is followed automatically.
 */
export function initAnalytics(config: BrowserAnalyticsConfig, deps: AnalyticsDependencies = {}): AnalyticsController {
  const win = deps.window ?? (typeof window === "undefined" ? undefined : window);
  if (!win || !config.token) return noopController;
  // An opted-out host never loads the library: no URL parameter can turn it on.
  if (isOptedOutHost(win.location.hostname, config.optOutHosts)) return noopController;

  const token = config.token;
  const load = deps.load ?? loadPostHog;
  const state = { loaded: false, capturing: false };
  let client: Promise<PostHogClient> | null = null;
  let lastPageview: string | null = null;
  let queue: Promise<void> = Promise.resolve();
  let disposed = false;

  const ensureClient = () => {
    client ??= load().then((posthog) => {
      posthog.init(token, {
        api_host: config.host,
        autocapture: false,
        capture_pageview: false,
        capture_pageleave: false,
        capture_dead_clicks: false,
        rageclick: false,
        disable_session_recording: true,
        disable_surveys: true,
        disable_external_dependency_loading: true,
        advanced_disable_flags: true,
        mask_all_text: true,
        mask_all_element_attributes: true,
        persistence: "localStorage",
        save_referrer: false,
        before_send: scrubBrowserEvent,
      });
      state.loaded = true;
      return posthog;
    });
    return client;
  };

  const decide = async (href: string) => {
    if (disposed) return;
    const url = new URL(href, win.location.href);
    if (!captureAllowed(url, config.optOutHosts)) {
      if (client) (await client).opt_out_capturing();
      state.capturing = false;
      lastPageview = null;
      return;
    }
    const posthog = await ensureClient();
    if (posthog.has_opted_out_capturing()) posthog.opt_in_capturing({ captureEventName: false });
    state.capturing = true;
    const page = `${url.origin}${url.pathname}`;
    if (page !== lastPageview) {
      lastPageview = page;
      posthog.capture("$pageview", { $current_url: page, $pathname: url.pathname });
    }
  };

  const update = (href?: string) => {
    const target = href ?? win.location.href;
    queue = queue.then(() => decide(target)).catch(() => undefined);
    return queue;
  };
  const onPopState = () => void update();
  win.addEventListener("popstate", onPopState);
  void update();
  return {
    update,
    state,
    dispose() {
      disposed = true;
      win.removeEventListener("popstate", onPopState);
    },
  };
}
