import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";

/**
 * Request-body plumbing for the firewall: read a body up to a limit, then give
 * it back to whoever reads the request next, unchanged.
 *
 * Who reads next is @remix-run/express: `createRemixRequest(req)` wraps the
 * Express request itself with `createReadableStreamFromReadable(req)`, which
 * uses `req.on("data" | "end" | "error" | "close")`, `req.pause()`,
 * `req.resume()`, `req.readable`, `req.readableHighWaterMark` and, on cancel,
 * `req.destroy()`. Express hands every middleware the same `req` object, so
 * the body cannot be swapped by passing a new request along; instead the
 * request's stream surface is pointed at a fresh Readable holding the same
 * bytes (`replaceRequestBody`). Events that are not about the body
 * ("aborted", ...) and everything else about the request (headers, socket,
 * url, complete) stay the original's.
 * Decision record: docs/decisions/051-firewall-body-inspection-and-replay.md.
 */

export type LimitedRead =
  | { kind: "complete"; body: Buffer }
  | { kind: "too-large"; received: number }
  | { kind: "failed"; error: Error };

/** Read the whole body, stopping as soon as it passes `limit` bytes. */
export function readBodyUpTo(req: IncomingMessage, limit: number): Promise<LimitedRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: LimitedRead) => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buf.byteLength;
      if (size > limit) {
        // Stop pulling bytes off the socket; the 413 goes out with
        // Connection: close and the rest of the body is never read.
        req.pause();
        finish({ kind: "too-large", received: size });
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => finish({ kind: "complete", body: Buffer.concat(chunks, size) });
    const onError = (error: Error) => finish({ kind: "failed", error });
    const onAborted = () => finish({ kind: "failed", error: new Error("client aborted the request") });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    req.once("aborted", onAborted);
  });
}

/** A plain (non-object-mode) stream that yields `body` once and ends. */
export function bufferStream(body: Buffer): Readable {
  let sent = false;
  return new Readable({
    highWaterMark: 64 * 1024,
    read() {
      if (!sent && body.byteLength > 0) this.push(body);
      sent = true;
      this.push(null);
    },
  });
}

// The events a body reader listens for; all others stay on the request.
const BODY_EVENTS = new Set<string | symbol>(["data", "end", "readable", "error", "close", "pause", "resume"]);

/**
 * Point the stream surface of `req` at `body`. After this, `req.on("data")`,
 * `req.pipe()`, `for await (const chunk of req)`, `req.read()`, `req.pause()`,
 * `req.resume()` and `req.destroy()` all act on `body`.
 */
export function replaceRequestBody(req: IncomingMessage, body: Readable): void {
  const target = req as unknown as Record<string | symbol, unknown>;
  const own = {
    on: req.on,
    once: req.once,
    off: req.off,
    addListener: req.addListener,
    removeListener: req.removeListener,
    prependListener: req.prependListener,
    prependOnceListener: req.prependOnceListener,
    removeAllListeners: req.removeAllListeners,
    listeners: req.listeners,
    rawListeners: req.rawListeners,
    listenerCount: req.listenerCount,
  };
  const route = (method: keyof typeof own) =>
    function (this: unknown, event: string | symbol, ...rest: unknown[]) {
      if (BODY_EVENTS.has(event)) {
        const result = (body[method] as (...a: unknown[]) => unknown).call(body, event, ...rest);
        // Chainable methods return the emitter: keep returning the request.
        return result === body ? req : result;
      }
      return (own[method] as (...a: unknown[]) => unknown).call(req, event, ...rest);
    };
  const methods: Record<string | symbol, unknown> = {};
  for (const name of Object.keys(own) as Array<keyof typeof own>) methods[name] = route(name);
  methods.removeAllListeners = function (event?: string | symbol) {
    if (event === undefined) {
      body.removeAllListeners();
      own.removeAllListeners.call(req);
    } else if (BODY_EVENTS.has(event)) body.removeAllListeners(event);
    else own.removeAllListeners.call(req, event);
    return req;
  };
  const delegate = (name: string) =>
    function (...args: unknown[]) {
      const result = (body as unknown as Record<string, (...a: unknown[]) => unknown>)[name].apply(body, args);
      return result === body ? req : result;
    };
  for (const name of ["read", "pause", "resume", "isPaused", "pipe", "unpipe", "setEncoding", "unshift", "wrap"]) {
    methods[name] = delegate(name);
  }
  methods[Symbol.asyncIterator] = () => body[Symbol.asyncIterator]();
  // The original request already ended; destroying the stand-in is enough
  // (and leaves the keep-alive socket alone).
  methods.destroy = (error?: Error) => {
    body.destroy(error);
    return req;
  };
  for (const [key, value] of [...Object.entries(methods), ...Object.getOwnPropertySymbols(methods).map((s) => [s, methods[s]] as const)]) {
    Object.defineProperty(target, key, { value, configurable: true, writable: true, enumerable: false });
  }
  for (const name of [
    "readable",
    "readableFlowing",
    "readableEnded",
    "readableLength",
    "readableHighWaterMark",
    "readableEncoding",
    "readableObjectMode",
    "readableDidRead",
    "readableAborted",
  ]) {
    Object.defineProperty(target, name, {
      configurable: true,
      enumerable: false,
      get: () => (body as unknown as Record<string, unknown>)[name],
    });
  }
}

export class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`Request body is larger than ${limit} bytes.`);
  }
}

/**
 * Let a body stream through untouched (no buffering, no extra stream) while
 * counting it. Counting happens where Node's HTTP parser hands the request its
 * bytes (`req.push`), so whoever reads the request later reads it exactly as
 * before. Past `limit` bytes the rest of the body is dropped and `onOverflow`
 * runs once; it answers 413 and then fails the reader with BodyTooLargeError.
 * Used for multipart uploads, which may be megabytes long.
 */
export function meterRequestBody(req: IncomingMessage, limit: number, onOverflow: (fail: () => void) => void): void {
  let seen = 0;
  let overflowed = false;
  const push = req.push;
  const metered = function (this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null || chunk === undefined) return push.call(this, chunk, encoding);
    if (overflowed) return false;
    seen += typeof chunk === "string" ? Buffer.byteLength(chunk, encoding) : (chunk as Uint8Array).byteLength;
    if (seen > limit) {
      overflowed = true;
      onOverflow(() => req.destroy(new BodyTooLargeError(limit)));
      return false;
    }
    return push.call(this, chunk, encoding);
  };
  Object.defineProperty(req, "push", { value: metered, configurable: true, writable: true, enumerable: false });
}
