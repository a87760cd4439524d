import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { drugsAutocomplete, observeUpstreamCalls } from "../../../app/server/upstream/client.server";
import { configureService, startStandInUpstream, TEST_KEY } from "./helpers";

// Decision 450: upstream calls go over kept connections, also against a server that announces a
// short keep-alive (the fake upstream says `Keep-Alive: timeout=2`, which undici's default 2 s margin
// turned into a new connection for every call), and a kept connection the server closes as a call
// goes out is asked again once on a new one.

/** A stand-in upstream: counts connections; `dropSecond` closes a connection on its second request unanswered. */
let standIn: Awaited<ReturnType<typeof startStandInUpstream>>;
let server: http.Server;
let connections = 0;
let requests = 0;
let dropSecond = false;
let dropped = 0;
const perSocket = new WeakMap<Socket, number>();

beforeAll(async () => {
  standIn = await startStandInUpstream((req, res) => {
    requests++;
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    req.resume();
    req.on("end", () => {
      if (dropSecond && n === 2) {
        dropped++;
        req.socket.destroy(); // closed as the call came in: no answer at all
        return;
      }
      const body = JSON.stringify([{ rxcui: "617318", name: "atorvastatin" }]);
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server = standIn.server;
  server.keepAliveTimeout = 2_000; // what the fake upstream announces
  server.on("connection", () => connections++);
});
afterAll(() => standIn.close());

let query = 0;
/** A new question each time (answers are cached by their text). */
const ask = () => drugsAutocomplete(`drug ${query++}`);

beforeEach(() => {
  configureService({ MARKETPLACE_API_BASE_URL: standIn.baseUrl, MARKETPLACE_API_KEY: TEST_KEY });
  server.closeAllConnections();
  connections = 0;
  requests = 0;
  dropSecond = false;
  dropped = 0;
});

describe("kept upstream connections", () => {
  it("reuses its connections for calls one after another against a server announcing timeout=2", async () => {
    for (let i = 0; i < 10; i++) expect(await ask()).toHaveLength(1);
    expect(requests).toBe(10);
    // undici may open a second one while the first is finishing its answer; never one a call.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("asks once more on a new connection when the server closes a kept one unanswered", async () => {
    const outcomes: string[] = [];
    const stop = observeUpstreamCalls((r) => outcomes.push(r.outcome));
    try {
      dropSecond = true;
      for (let i = 0; i < 6; i++) expect(await ask()).toHaveLength(1);
      expect(dropped).toBeGreaterThan(0); // a kept connection was reused, and closed unanswered
      expect(requests).toBe(6 + dropped); // each of those asked once more
      expect(outcomes).toEqual(Array(6).fill("ok")); // one call each, as the log and metrics count them
    } finally {
      stop();
    }
  });

  it("does not ask again when the server refuses the connection (an outage, not a closed kept one)", async () => {
    const { port } = server.address() as AddressInfo;
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    configureService({
      MARKETPLACE_API_BASE_URL: `http://127.0.0.1:${deadPort}/api/v1`,
      MARKETPLACE_API_KEY: TEST_KEY,
    });
    const error = await ask().catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "connection" });
    expect(port).not.toBe(deadPort);
  });
});
