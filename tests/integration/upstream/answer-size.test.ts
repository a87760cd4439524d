import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { drugsAutocomplete, observeUpstreamCalls } from "../../../app/server/upstream/client.server";
import { ANSWER_MAX_BYTES } from "../../../app/server/upstream/transport.server";
import { configureService, startStandInUpstream, TEST_KEY } from "./helpers";

// Decision 514: an upstream answer larger than any real one is cut off unread. One 60 MB answer of
// the right shape exhausted the server's heap and killed it (the whole answer was read, decoded and
// parsed, then kept in the autocomplete cache).

const CAP = ANSWER_MAX_BYTES["drugs.autocomplete"];

/** How the stand-in answers the next call. */
let answer: { status: number; bytes: number; declareLength: boolean; contentType: string } = {
  status: 200,
  bytes: 1000,
  declareLength: false,
  contentType: "application/json",
};
/** Bytes the stand-in had written when each call's answer ended (sent whole, or its connection closed). */
let written: number[] = [];

/** A bare array of drug suggestions of the real shape, about `bytes` long, with non-ASCII names. */
function suggestions(bytes: number): Buffer {
  if (bytes > 1024 * 1024) {
    // Large ones are one suggestion repeated (quick to make); the stand-in never sends them whole anyway.
    const item = Buffer.from(`${JSON.stringify({ rxcui: "100000", name: "Ñandú — metformina" })},`);
    const repeated = Buffer.alloc(bytes - (bytes % item.length), item);
    return Buffer.concat([Buffer.from("["), repeated, Buffer.from(`${JSON.stringify({ rxcui: "1", name: "end" })}]`)]);
  }
  const items: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = JSON.stringify({ rxcui: String(100000 + i), name: `Ñandú ${i} — metformina`, route: "Oral" });
    items.push(item);
    size += Buffer.byteLength(item) + 1;
  }
  return Buffer.from(`[${items.join(",")}]`);
}

let standIn: Awaited<ReturnType<typeof startStandInUpstream>>;
let requests = 0;
const made = new Map<number, Buffer>();
beforeAll(async () => {
  standIn = await startStandInUpstream((req, res) => {
    req.resume();
    requests++;
    let body = answer.status === 200 ? made.get(answer.bytes) : Buffer.alloc(answer.bytes, "<p>error</p>");
    if (!body) made.set(answer.bytes, (body = suggestions(answer.bytes)));
    res.writeHead(answer.status, {
      "content-type": answer.contentType,
      ...(answer.declareLength ? { "content-length": String(body.length) } : {}),
    });
    // Small pieces, each only once the last is taken, so what was sent before the call gave up is known.
    let offset = 0;
    const pump = () => {
      while (offset < body.length && !res.destroyed) {
        const piece = body.subarray(offset, offset + 16 * 1024);
        offset += piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
      res.end();
    };
    res.on("close", () => written.push(offset));
    pump();
  });
});
afterAll(async () => {
  configureService({ UPSTREAM_CALLS_PER_SECOND: undefined, UPSTREAM_CALLS_PER_MINUTE: undefined });
  await standIn.close();
});

let query = 0;
const ask = () => drugsAutocomplete(`drug ${query++}`);

beforeEach(() => {
  configureService({
    MARKETPLACE_API_BASE_URL: standIn.baseUrl,
    MARKETPLACE_API_KEY: TEST_KEY,
    // Autocomplete's share of the call budget would pace the 160 look-ups below over seconds.
    UPSTREAM_CALLS_PER_SECOND: "10000",
    UPSTREAM_CALLS_PER_MINUTE: "100000",
  });
  written = [];
  requests = 0;
  answer = { status: 200, bytes: 1000, declareLength: false, contentType: "application/json" };
});

describe("upstream answers larger than any real one", () => {
  it("reads an answer just under the cap whole, multi-byte names across pieces intact", async () => {
    answer.bytes = CAP - 2_000;
    const found = await ask();
    expect(found.length).toBeGreaterThan(1_000);
    expect(found[0]).toMatchObject({ rxcui: "100000", name: "Ñandú 0 — metformina" });
    expect(found.every((d, i) => d.name === `Ñandú ${i} — metformina`)).toBe(true);
  });

  it("gives up on a streamed answer past the cap as 'too_large', without reading the rest", async () => {
    answer.bytes = 40 * 1024 * 1024;
    const outcomes: string[] = [];
    const stop = observeUpstreamCalls((r) => outcomes.push(r.outcome));
    try {
      const error = await ask().catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "too_large", status: 200 });
    } finally {
      stop();
    }
    expect(outcomes).toEqual(["too_large"]);
    // The connection was closed a little past the cap (what the sockets' buffers held), not at 40 MB.
    await expect.poll(() => written.length).toBe(1);
    expect(written[0]).toBeLessThan(CAP + 8 * 1024 * 1024);
  });

  it("refuses an answer whose Content-Length is past the cap before reading it", async () => {
    answer = { status: 200, bytes: CAP + 1, declareLength: true, contentType: "application/json" };
    const error = await ask().catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "too_large" });
  });

  it("still reports a large error page by its status (a 502 is the upstream failing, not too large)", async () => {
    answer = { status: 502, bytes: CAP * 3, declareLength: false, contentType: "text/html" };
    const error = await ask().catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "server_error", status: 502 });
  });

  it("keeps look-ups by the size of their answers, not their count", async () => {
    // 60 answers of 200 KB each (under the cap) are 12 MB, past the 8 MB the look-up caches keep;
    // by count (2,000 entries) every one would be kept, and 550 of them filled the server's heap.
    answer.bytes = 200 * 1024;
    const queries = Array.from({ length: 60 }, (_, i) => `large answer ${i}`);
    for (const q of queries) await drugsAutocomplete(q);
    expect(requests).toBe(60);
    await drugsAutocomplete(queries[59]!); // the latest is kept
    expect(requests).toBe(60);
    await drugsAutocomplete(queries[0]!); // the oldest made room for the others
    expect(requests).toBe(61);
    // Small answers are kept as before: 100 of them, each asked again, cost no call.
    answer.bytes = 300;
    const small = Array.from({ length: 100 }, (_, i) => `small answer ${i}`);
    for (const q of small) await drugsAutocomplete(q);
    for (const q of small) await drugsAutocomplete(q);
    expect(requests).toBe(161);
  });

  it("answers the next call normally after cutting one off", async () => {
    answer.bytes = 10 * 1024 * 1024;
    await expect(ask()).rejects.toMatchObject({ reason: "too_large" });
    answer.bytes = 500;
    expect((await ask()).length).toBeGreaterThan(0);
  });
});
