import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import express from "express";
import {
  chooseCoding,
  compressKept,
  compressWholeAnswers,
  KEPT_ANSWER,
  MAX_HELD_BYTES,
  MIN_BYTES,
} from "../../../server/compression";

/**
 * Answers are held until they end and compressed in one call
 * (docs/decisions/121): real HTTP on loopback to an Express app whose routes
 * write the way Remix does (several chunks, then end).
 */
const big = JSON.stringify({
  plans: Array.from({ length: 400 }, (_, i) => ({ id: `plan-${i}`, premium: 400 + i / 100 })),
});

const keptBody = Buffer.from(big.replaceAll("plan-", "kept-"));

let server: http.Server;
let base: string;
/** Set by /events: ends the stream (the client calls it on the first chunk). */
let firstEventReceived = () => {};
beforeAll(async () => {
  const app = express();
  app.use(compressWholeAnswers());
  app.get("/chunks", (_req, res) => {
    res.setHeader("content-type", "application/json");
    const third = Math.ceil(big.length / 3);
    res.write(big.slice(0, third));
    setImmediate(() => {
      res.write(Buffer.from(big.slice(third, 2 * third)));
      setImmediate(() => res.end(big.slice(2 * third)));
    });
  });
  // A kept answer (decision 402): the same Buffer every time, marked as such by the writer.
  app.get("/kept", (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.locals[KEPT_ANSWER] = true;
    res.end(keptBody);
  });
  app.get("/small", (_req, res) => res.type("application/json").end('{"status":"ok"}'));
  app.get("/png", (_req, res) => res.type("image/png").end(Buffer.alloc(4096, 7)));
  app.get("/no-transform", (_req, res) =>
    res.set("cache-control", "no-transform").type("text/html").end("x".repeat(4096)),
  );
  app.get("/huge", (_req, res) => {
    res.type("text/plain");
    const piece = "y".repeat(1024 * 1024);
    for (let i = 0; i < 5; i++) res.write(piece);
    res.end();
  });
  app.get("/events", (_req, res) => {
    res.type("text/event-stream");
    res.write("data: first\n\n");
    // The stream ends when the client says it has the first event; if the first event were
    // held until the end, that never comes, and the stream ends after 3 s with another last line.
    const giveUp = setTimeout(() => res.end("data: held\n\n"), 3_000);
    firstEventReceived = () => {
      clearTimeout(giveUp);
      res.end("data: last\n\n");
    };
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(
  path: string,
  acceptEncoding?: string,
  method = "GET",
  onFirstChunk: (chunk: Buffer) => void = () => {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          if (chunks.length === 1) onFirstChunk(c);
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("choosing a coding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["deflate", "deflate"],
    ["br;q=0, gzip;q=0.5", "gzip"],
    ["*", "br"],
    ["*;q=0, deflate", "deflate"],
    ["identity", null],
    ["gzip;q=0", null],
    ["", null],
  ])("Accept-Encoding %j → %s", (header, want) => {
    expect(chooseCoding(header)).toBe(want);
  });
});

describe("whole answers", () => {
  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
    ["deflate", inflateSync],
  ] as const)(
    "an answer written in chunks arrives as one %s body with its length, the same bytes once decoded",
    async (coding, decode) => {
      const res = await get("/chunks", coding);
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBe(coding);
      expect(res.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(res.headers["content-length"])).toBe(res.body.length);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(big.length / 3);
      expect(decode(res.body).toString()).toBe(big);
    },
  );

  it("a kept answer is compressed once per coding and sent the same each time", async () => {
    const first = await get("/kept", "br");
    const again = await get("/kept", "br");
    expect(first.headers["content-encoding"]).toBe("br");
    expect(Number(again.headers["content-length"])).toBe(again.body.length);
    expect(again.body.equals(first.body)).toBe(true);
    expect(brotliDecompressSync(again.body).equals(keptBody)).toBe(true);
    const gzip = await get("/kept", "gzip");
    expect(gunzipSync(gzip.body).equals(keptBody)).toBe(true);
    // The copy the answers were sent from: one object per Buffer and coding, another for another Buffer.
    expect(compressKept(keptBody, "br")).toBe(compressKept(keptBody, "br"));
    expect(compressKept(keptBody, "gzip")).toBe(compressKept(keptBody, "gzip"));
    expect(compressKept(Buffer.from(keptBody), "br")).not.toBe(compressKept(keptBody, "br"));
  });

  it("a client that accepts no coding gets the bytes as written, with their length", async () => {
    const res = await get("/chunks");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(big);
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(big));
  });

  it(`an answer under ${MIN_BYTES} bytes, a PNG and a no-transform answer go uncompressed`, async () => {
    for (const path of ["/small", "/png", "/no-transform"]) {
      const res = await get(path, "gzip, br");
      expect(res.headers["content-encoding"], path).toBeUndefined();
      expect(Number(res.headers["content-length"]), path).toBe(res.body.length);
    }
    expect((await get("/small", "br")).body.toString()).toBe('{"status":"ok"}');
  });

  it("HEAD gets no encoding and no body", async () => {
    const res = await get("/chunks", "br", "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.length).toBe(0);
  });

  it(`past ${MAX_HELD_BYTES / 1024 / 1024} MB an answer is passed on as it comes, whole and uncompressed`, async () => {
    const res = await get("/huge", "br");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.length).toBe(5 * 1024 * 1024);
    expect(res.body.every((b) => b === "y".charCodeAt(0))).toBe(true);
  });

  it("an event stream is not held: its first event arrives before the stream ends", async () => {
    let first = "";
    const res = await get("/events", "br", "GET", (chunk) => {
      first = chunk.toString();
      firstEventReceived();
    });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(first).toBe("data: first\n\n");
    // "last", not "held": the stream ended because the client had the first event.
    expect(res.body.toString()).toBe("data: first\n\ndata: last\n\n");
  });
});
