import type { IncomingMessage } from "node:http";

/**
 * Request-body plumbing for the firewall: read a body up to a limit and keep
 * it for the route (JSON, form and multipart bodies alike).
 *
 * A read body is kept against its request (`keepInspectedBody`) and our
 * Express → Remix glue (remix-handler.server.ts) gives Remix those bytes as
 * the Request body: Express hands every middleware the same `req`, whose
 * stream cannot be rewound, so the bytes travel beside it.
 * Decision records: docs/decisions/051-firewall-body-inspection-and-replay.md,
 * docs/decisions/124-firewall-body-handed-to-remix.md.
 */

export type LimitedRead =
  { kind: "complete"; body: Buffer } | { kind: "too-large"; received: number } | { kind: "failed"; error: Error };

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

/**
 * Read the body and throw it away, up to `limit` bytes (then the connection is ended): an answer
 * sent before the body was read, on a connection closed with the body still arriving, reaches many
 * clients as a reset instead of the answer (undici: EPIPE). Costs socket reads, no memory.
 */
export function discardBodyUpTo(req: IncomingMessage, limit: number): void {
  let size = 0;
  req.on("data", (chunk: Buffer | string) => {
    size += chunk.length;
    if (size > limit) req.destroy();
  });
  req.on("error", () => undefined);
  req.resume();
}

const inspectedBodies = new WeakMap<IncomingMessage, Buffer>();

/**
 * Keep the body the firewall read and judged for the request's route
 * (server/remix-handler.ts hands it to Remix). The request's own
 * stream has been read to its end; nothing else in this service reads it.
 */
export function keepInspectedBody(req: IncomingMessage, body: Buffer): void {
  inspectedBodies.set(req, body);
}

/** The body the firewall read for this request, or undefined when it read none (GET, multipart, no body). */
export function inspectedBody(req: IncomingMessage): Buffer | undefined {
  return inspectedBodies.get(req);
}

/** A page request whose body was over the limit: handed to its route with no body, told why. */
export interface RefusedBody {
  /** 413: over the limit; 503: the upload memory budget was full (docs/decisions/518). */
  status: 413 | 503;
  limitBytes: number;
  /** A multipart upload (else a form or other body). */
  multipart: boolean;
}
const refusedBodies = new WeakMap<IncomingMessage, RefusedBody>();

/**
 * The firewall did not read this page request's body (it was over the limit):
 * the route gets an empty form and this note, so the page can say so in place,
 * beside the form (docs/decisions/272-upload-refusals-in-the-page.md).
 */
export function keepRefusedBody(req: IncomingMessage, refused: RefusedBody): void {
  refusedBodies.set(req, refused);
  inspectedBodies.set(req, Buffer.alloc(0));
}

export function refusedBody(req: IncomingMessage): RefusedBody | undefined {
  return refusedBodies.get(req);
}
