import net from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer, SERVER_TIMEOUTS } from "../../../server/timeouts";
import { requestFirewall } from "../../../server/firewall/index";
import { listen } from "./helpers";

/**
 * Issue 8 part 3: slow clients are cut off by the header and request
 * timeouts. Short timeouts here (the production values are checked below)
 * with the same server construction server.ts can use.
 */
let server: Awaited<ReturnType<typeof listen>>;
let port: number;

beforeAll(async () => {
  const app = express();
  app.use(requestFirewall({ log: { warn: () => undefined } }));
  app.all("*", (_req, res) => res.send("ok"));
  const http = createHttpServer(app, {
    headersTimeoutMs: 600,
    requestTimeoutMs: 1_200,
    connectionsCheckingIntervalMs: 100,
  });
  server = await listen(app, http);
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

/** Open a raw socket, send `first`, then drip `drip` every `everyMs`; resolve with what came back and when. */
function slowClient(
  first: string,
  drip: string,
  everyMs: number,
): Promise<{ response: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let response = "";
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(drip);
    }, everyMs);
    socket.on("connect", () => socket.write(first));
    socket.on("data", (d) => (response += d.toString("utf8")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ response, closedAfterMs: Date.now() - started });
    });
  });
}

describe("slow clients", () => {
  it("cuts off a client that sends its headers too slowly (slowloris) with 408", async () => {
    const { response, closedAfterMs } = await slowClient("GET / HTTP/1.1\r\nHost: x\r\n", "X-Slow: a\r\n", 100);
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it("cuts off a client that sends its body too slowly with 408", async () => {
    const head = "POST /api/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
    const { response, closedAfterMs } = await slowClient(head, " ", 100);
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(closedAfterMs).toBeLessThan(4_000);
  });

  it("serves a prompt client normally on the same server", async () => {
    const res = await fetch(`${server.url}/`);
    expect(await res.text()).toBe("ok");
  });

  it("uses 10 s for headers, 30 s for the whole request and a 1 s sweep in production", () => {
    expect(SERVER_TIMEOUTS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      connectionsCheckingIntervalMs: 1_000,
    });
    const s = createHttpServer(() => undefined);
    expect([s.headersTimeout, s.requestTimeout, s.keepAliveTimeout]).toEqual([10_000, 30_000, 5_000]);
  });
});
