import { createHash } from "node:crypto";
import type { PostHog } from "posthog-node";
import type { BrowserAnalyticsConfig } from "../../components/analytics-config";
import { env, type Env } from "./env.server";
import { logger } from "./logger.server";
import { onSettle, onShutdown, processSingleton } from "./lifecycle.server";

/**
 * Server-side analytics through posthog-node. A no-op client with the same
 * methods stands in when POSTHOG_API_KEY is missing or DEPLOY_ENV is
 * `staging`; capture never throws and never delays or fails a response.
 *
 * Incomes, ages, email addresses (and names, phones, licence numbers) never
 * reach analytics: every capture goes through `scrubAnalyticsProperties`, and
 * the distinct id is a submission id, never an address.
 */

export type AnalyticsProperties = Record<string, string | number | boolean | null | undefined | string[]>;

export interface AnalyticsClient {
  readonly enabled: boolean;
  capture(event: { distinctId: string; event: string; properties?: AnalyticsProperties }): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

class NoopAnalytics implements AnalyticsClient {
  readonly enabled = false;
  capture(): void {}
  async flush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

/**
 * posthog-node is imported on first use, not at start (~110 ms of module
 * loading the first answer need not wait for; docs/decisions/117). Captures made
 * while it loads are queued on the load and sent in order once it is there.
 */
class PostHogAnalytics implements AnalyticsClient {
  readonly enabled = true;
  private client: PostHog | null = null;
  private readonly loading: Promise<PostHog | null>;
  constructor(load: () => Promise<PostHog>) {
    this.loading = load().then(
      (client) => (this.client = client),
      (error: unknown) => {
        logger().warn(
          { err: error instanceof Error ? error.message : String(error) },
          "analytics client failed to load",
        );
        return null;
      },
    );
  }
  capture(event: { distinctId: string; event: string; properties?: AnalyticsProperties }): void {
    if (this.client) return this.send(this.client, event);
    // Scrubbed now, so a caller's later change to its object cannot leak into the queued event.
    const queued = { ...event, properties: scrubAnalyticsProperties(event.properties ?? {}) };
    void this.loading.then((client) => {
      if (client) this.send(client, queued);
    });
  }
  private send(client: PostHog, event: { distinctId: string; event: string; properties?: AnalyticsProperties }): void {
    try {
      client.capture({
        distinctId: event.distinctId,
        event: event.event,
        properties: scrubAnalyticsProperties(event.properties ?? {}),
      });
    } catch (error) {
      logger().warn(
        { event: event.event, err: error instanceof Error ? error.message : String(error) },
        "analytics capture failed",
      );
    }
  }
  async flush(): Promise<void> {
    try {
      await (await this.loading)?.flush();
    } catch {
      // Analytics is best effort.
    }
  }
  async shutdown(): Promise<void> {
    try {
      await (await this.loading)?.shutdown(2_000);
    } catch {
      // Analytics is best effort.
    }
  }
}

/** Whether the server captures at all under this configuration. */
export function serverAnalyticsEnabled(config: Pick<Env, "POSTHOG_API_KEY" | "DEPLOY_ENV"> = env()): boolean {
  return Boolean(config.POSTHOG_API_KEY) && config.DEPLOY_ENV.trim().toLowerCase() !== "staging";
}

export function createAnalyticsClient(
  config: Pick<Env, "POSTHOG_API_KEY" | "POSTHOG_HOST" | "DEPLOY_ENV">,
  options: { flushAt?: number; flushInterval?: number } = {},
): AnalyticsClient {
  if (!serverAnalyticsEnabled(config)) return new NoopAnalytics();
  return new PostHogAnalytics(async () => {
    const { PostHog } = await import("posthog-node");
    const client = new PostHog(config.POSTHOG_API_KEY!, {
      host: config.POSTHOG_HOST,
      flushAt: options.flushAt ?? 20,
      flushInterval: options.flushInterval ?? 10_000,
      // Events describe submissions, not people: no GeoIP from the server's address.
      disableGeoip: true,
    });
    client.on("error", (error: unknown) => {
      logger().warn({ err: error instanceof Error ? error.message : String(error) }, "analytics delivery failed");
    });
    return client;
  });
}

/** The process-wide client. */
export function analytics(): AnalyticsClient {
  const config = env();
  // The singleton's name holds a digest of the token, never the token itself.
  const key = `analytics:${serverAnalyticsEnabled(config) ? `${config.POSTHOG_HOST}:${createHash("sha256").update(config.POSTHOG_API_KEY!).digest("hex").slice(0, 16)}` : "noop"}`;
  return processSingleton(key, () => {
    const client = createAnalyticsClient(config);
    if (client.enabled) {
      onShutdown("analytics", () => client.shutdown());
      onSettle(key, () => client.flush());
    }
    return client;
  });
}

/** Capture a server event; swallows every error (a missing token or outage never fails a request). */
export function captureServerEvent(distinctId: string, event: string, properties: AnalyticsProperties = {}): void {
  try {
    analytics().capture({ distinctId, event, properties });
  } catch (error) {
    logger().warn({ event, err: error instanceof Error ? error.message : String(error) }, "analytics capture failed");
  }
}

const FORBIDDEN_KEY =
  /(e-?mail|income|salary|wage|(^|_|\b)ages?($|_|\b)|birth|dob|name|phone|npn|producer|address|ssn)/i;
// Linear: the scan starts only at an "@" (a leading `[^\s@]+` is quadratic on long text without one).
const EMAIL_VALUE = /[^\s@]@[^\s@]+\.[^\s@]/;

/**
 * Drop any property whose name suggests personal data (email, income, age,
 * birth date, name, phone, licence number, street address) and any value that
 * looks like an email address.
 */
export function scrubAnalyticsProperties(properties: AnalyticsProperties): AnalyticsProperties {
  const clean: AnalyticsProperties = {};
  for (const [key, value] of Object.entries(properties)) {
    if (FORBIDDEN_KEY.test(key)) continue;
    if (typeof value === "string" && EMAIL_VALUE.test(value)) continue;
    if (Array.isArray(value)) {
      if (value.some((v) => EMAIL_VALUE.test(v))) continue;
    }
    if (value === undefined) continue;
    clean[key] = value;
  }
  return clean;
}

/** The public subset of settings the browser needs (the root loader passes it to <Analytics>). */
export function browserAnalyticsSettings(config: Env = env()): BrowserAnalyticsConfig {
  return {
    token: serverAnalyticsEnabled(config) ? config.POSTHOG_API_KEY! : null,
    host: config.POSTHOG_HOST,
    optOutHosts: config.ANALYTICS_OPT_OUT_HOSTS.split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  };
}
