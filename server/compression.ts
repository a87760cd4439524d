/**
 * Compression of whole answers (docs/decisions/121-whole-answer-compression.md).
 *
 * Remix hands an answer to Express as a stream of chunks (a plan list in one
 * or two, a page in a dozen as React renders it). The `compression`
 * middleware pushed each through a zlib stream on the thread pool: a round
 * trip to another thread per chunk and several turns of the event loop per
 * answer, which under load cost more than the compressing itself. Here the
 * chunks are held until the answer ends and compressed in one synchronous
 * call (brotli quality 1 takes ~0.08 ms for a 56 KB plan list, gzip 1 ~0.09 ms),
 * and the answer goes out in one write with its Content-Length.
 *
 * What is not held: event streams, and anything past MAX_HELD_BYTES, which
 * goes out as it comes, uncompressed. What is not compressed: HEAD, 1xx/204/304,
 * answers already encoded or marked no-transform, types that do not compress,
 * answers under MIN_BYTES.
 */
import type { NextFunction, Request, Response } from "express";
import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from "node:zlib";

/** Below this an answer is sent as it is: the encoding would save less than a packet. */
export const MIN_BYTES = 1024;
/** Above this an answer is passed on as it comes (a 500-plan list is ~0.6 MB). */
export const MAX_HELD_BYTES = 4 * 1024 * 1024;

const COMPRESSIBLE_TYPE =
  /^\s*(text\/|application\/(json|javascript|xml|manifest\+json|problem\+json|[a-z.+-]*\+(json|xml))|image\/svg\+xml)/i;

type Coding = "br" | "gzip" | "deflate";
const PREFERENCE: readonly Coding[] = ["br", "gzip", "deflate"];

/** The coding to send for an Accept-Encoding header: brotli, then gzip, then deflate, whichever is accepted (q > 0). */
export function chooseCoding(acceptEncoding: string | undefined): Coding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  for (const coding of PREFERENCE) {
    const value = q.get(coding) ?? q.get("*");
    if (value !== undefined && value > 0) return coding;
  }
  return null;
}

function compress(body: Buffer, coding: Coding): Buffer {
  if (coding === "br") {
    return brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 1,
        [zlib.BROTLI_PARAM_LGWIN]: 18,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return coding === "gzip" ? gzipSync(body, { level: 1 }) : deflateSync(body, { level: 1 });
}

/**
 * Compressed copies of answers kept whole and given again as the same Buffer (the plan list's
 * answer cache, decision 402): compressed once per coding while the Buffer lives.
 */
const keptCompressed = new WeakMap<Buffer, Partial<Record<Coding, Buffer>>>();

/** `compress`, once per kept Buffer and coding. */
export function compressKept(body: Buffer, coding: Coding): Buffer {
  let copies = keptCompressed.get(body);
  if (!copies) keptCompressed.set(body, (copies = {}));
  return (copies[coding] ??= compress(body, coding));
}

/** Set by whoever writes a kept Buffer (server/api-fast-path.ts): the body is the same object each time. */
export const KEPT_ANSWER = "keptAnswer";

function addVary(res: Response): void {
  const vary = String(res.getHeader("vary") ?? "");
  if (vary.trim() === "*" || /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) return;
  res.setHeader("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
}

/** Whether this answer may be compressed at all (before looking at the client's codings); the size first, the cheapest. */
function compressible(req: Request, res: Response, size: number): boolean {
  if (size < MIN_BYTES) return false;
  if (req.method === "HEAD" || res.statusCode < 200 || res.statusCode === 204 || res.statusCode === 304) return false;
  const encoding = res.getHeader("content-encoding");
  if (encoding !== undefined && String(encoding).toLowerCase() !== "identity") return false;
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(String(res.getHeader("cache-control") ?? ""))) return false;
  return COMPRESSIBLE_TYPE.test(String(res.getHeader("content-type") ?? ""));
}

type WriteCallback = (error?: Error | null) => void;

/** An answer being held: the response's own write and end, and what was written so far. */
interface Held {
  req: Request;
  write: (this: Response, chunk: Buffer, cb?: WriteCallback) => boolean;
  end: (this: Response, chunk?: Buffer, cb?: () => void) => Response;
  chunks: Buffer[];
  size: number;
  /** True once the answer is passed on as it comes (an event stream, or too large to hold). */
  passing: boolean;
}

const HELD = Symbol("held answer");
type HoldingResponse = Response & { [HELD]: Held };

/**
 * The middleware. Nothing is made per request but the Held record: write and end are shared
 * functions reading it from the response (issue 29: no per-request closures on the hot path).
 */
export function compressWholeAnswers() {
  return function wholeAnswerCompression(req: Request, res: Response, next: NextFunction): void {
    (res as HoldingResponse)[HELD] = {
      req,
      write: res.write as Held["write"],
      end: res.end as Held["end"],
      chunks: [],
      size: 0,
      passing: false,
    };
    res.write = heldWrite as Response["write"];
    res.end = heldEnd as Response["end"];
    next();
  };
}

function take(held: Held): Buffer {
  const body = held.chunks.length === 1 ? held.chunks[0]! : Buffer.concat(held.chunks, held.size);
  held.chunks = [];
  held.size = 0;
  return body;
}

function bufferOf(chunk: unknown, encoding: unknown): Buffer {
  return Buffer.isBuffer(chunk)
    ? chunk
    : typeof chunk === "string"
      ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
      : // A view on the same bytes, not a copy (Remix writes Uint8Array chunks it does not reuse).
        Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);
}

function heldWrite(this: HoldingResponse, chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
  const held = this[HELD];
  const callback = (typeof encoding === "function" ? encoding : cb) as WriteCallback | undefined;
  if (!held.passing && /text\/event-stream/i.test(String(this.getHeader("content-type") ?? ""))) held.passing = true;
  if (held.passing) {
    if (held.size > 0) held.write.call(this, take(held));
    return held.write.call(this, bufferOf(chunk, encoding), callback);
  }
  const buffer = bufferOf(chunk, encoding);
  held.chunks.push(buffer);
  held.size += buffer.length;
  if (callback) process.nextTick(callback);
  if (held.size > MAX_HELD_BYTES) {
    held.passing = true;
    return held.write.call(this, take(held));
  }
  return true;
}

function heldEnd(this: HoldingResponse, chunk?: unknown, encoding?: unknown, cb?: unknown): Response {
  const held = this[HELD];
  const callback = [chunk, encoding, cb].find((a) => typeof a === "function") as (() => void) | undefined;
  const last =
    chunk !== undefined && chunk !== null && typeof chunk !== "function" ? bufferOf(chunk, encoding) : undefined;
  if (held.passing) {
    if (held.size > 0) held.write.call(this, take(held));
    return callback ? held.end.call(this, last, callback) : held.end.call(this, last);
  }
  if (last) {
    held.chunks.push(last);
    held.size += last.length;
  }
  // The kept Buffer itself (one chunk), so its compressed copies can be found again.
  const kept = this.locals[KEPT_ANSWER] === true && held.chunks.length === 1 && held.chunks[0] === last;
  let body = held.size > 0 ? take(held) : undefined;
  const req = held.req;
  if (body && !this.headersSent) {
    if (compressible(req, this, body.length)) {
      addVary(this);
      const coding = chooseCoding(req.headers["accept-encoding"]);
      if (coding) {
        body = kept ? compressKept(body, coding) : compress(body, coding);
        this.setHeader("content-encoding", coding);
      }
    }
    // One write with its length: no chunked framing.
    if (req.method !== "HEAD") this.setHeader("content-length", body.length);
  }
  return callback ? held.end.call(this, body, callback) : held.end.call(this, body);
}
