import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readRequestBody, waitUntil } from "./fake-http";

/**
 * A stand-in PostHog ingestion host: records every event posted to /batch/,
 * /capture/, /e/ or /i/v0/e/ (gzip or plain JSON), so tests can check what
 * analytics received, and that no email, income or age is in it.
 */

export interface FakePostHogEvent {
  event: string;
  distinct_id?: string;
  properties: Record<string, unknown>;
  raw: unknown;
}

export interface FakePostHog {
  url: string;
  events: FakePostHogEvent[];
  /** Every request body as received (after gunzip), for "nothing personal anywhere" checks. */
  bodies: string[];
  waitForEvents(count: number, timeoutMs?: number): Promise<FakePostHogEvent[]>;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakePostHog(): Promise<FakePostHog> {
  const events: FakePostHogEvent[] = [];
  const bodies: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readRequestBody(req).catch(() => Buffer.alloc(0));
    const text = body.toString("utf8");
    bodies.push(text);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "POST" && ["/batch/", "/batch", "/capture/", "/e/", "/i/v0/e/"].includes(path)) {
      try {
        const parsed = JSON.parse(text) as { batch?: unknown[] } | unknown[];
        const list = Array.isArray(parsed) ? parsed : (parsed.batch ?? [parsed]);
        for (const item of list as Record<string, unknown>[]) {
          events.push({
            event: String(item.event),
            distinct_id:
              (item.distinct_id as string | undefined) ??
              ((item.properties as Record<string, unknown> | undefined)?.distinct_id as string | undefined),
            properties: (item.properties as Record<string, unknown>) ?? {},
            raw: item,
          });
        }
      } catch {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: 1 }));
      return;
    }
    // Feature-flag and config endpoints: answer "nothing enabled".
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ featureFlags: {}, flags: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    bodies,
    waitForEvents: (count, timeoutMs = 5_000) =>
      waitUntil(() => (events.length >= count ? events.slice() : null), timeoutMs, `${count} analytics events`),
    reset() {
      events.length = 0;
      bodies.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
