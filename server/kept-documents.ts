/**
 * Plan pages kept a minute for the same request (docs/decisions/420).
 *
 * A plan page is asked for again with the same address: the back button, a reload, the list's
 * link opened again, the compare page's links. Rendering it (pricing the plan for the household,
 * React rendering ~45 KB) is ~1.5 ms; the kept document costs putting this answer's CSP nonce in.
 *
 * A document is kept only when its loader said it may be (`keptDocument.keep`: priced from our own
 * store with an estimate that came whole, no drugs or doctors looked up upstream), it answered 200
 * as HTML, and it sets no cookie. The key holds everything else the page is made from: the address
 * (path and query), the scheme and host (the page's absolute links), the Cookie and Accept-Language
 * headers (its language), the marketplace date (the plan year shopped) and the store version (one
 * cache per open store file). The document differs from one answer to the next only in the CSP
 * nonce (16 random bytes: it appears nowhere else), which is put back fresh for every answer. The
 * security headers, request id, Server-Timing and compression are this answer's, as for any other.
 */
import type { NextFunction, Request, Response } from "express";
import { cachesPerOwner } from "../app/server/platform/cache.server";
import { planStore } from "../app/server/plan-store/plan-store.server";
import { marketplaceDate } from "../app/server/shopping/plan-year.server";

export const KEPT_DOCUMENT_TTL_MS = 60_000;
/** Total characters kept per store version: a plan page is ~45 K. */
const KEPT_DOCUMENT_CHARS = 16 * 1024 * 1024;
/** The plan page's address (not the compare page's); not its data requests (`.data`, `_data`). */
const PLAN_PAGE = /^\/plans\/(?!compare$)[^/]+$/;
/** The headers Remix sets on a document that are the document's (the rest are this answer's). */
const DOCUMENT_HEADERS = ["content-type", "content-language", "cache-control", "vary", "link", "x-robots-tag"];

interface KeptDocument {
  headers: Array<[string, string | number | string[]]>;
  /** The document split where its nonce was. */
  parts: string[];
  chars: number;
}

/** What the loader is handed as `context.keptDocument` (server.ts). */
export interface KeptDocumentMark {
  keep: boolean;
}

export function keptDocuments(clock: () => Date = () => new Date()) {
  const cacheOf = cachesPerOwner<string, KeptDocument>({
    limit: KEPT_DOCUMENT_CHARS,
    weigh: (kept) => kept.chars,
    ttlMs: KEPT_DOCUMENT_TTL_MS,
  });

  return function keptDocument(req: Request, res: Response, next: NextFunction): void {
    const nonce = res.locals.cspNonce;
    if (req.method !== "GET" || !PLAN_PAGE.test(req.path) || req.path.endsWith(".data")) return next();
    if (req.query._data !== undefined || typeof nonce !== "string" || nonce.length < 16) return next();
    let version: object;
    try {
      version = planStore().version();
    } catch {
      return next(); // no store: the page says so, as it is rendered
    }
    const cache = cacheOf(version);
    const key = [
      marketplaceDate(clock()),
      req.protocol,
      req.get("host") ?? "",
      req.headers.cookie ?? "",
      req.headers["accept-language"] ?? "",
      req.originalUrl,
    ].join("\0");
    const kept = cache.get(key);
    if (kept) {
      res.status(200);
      for (const [name, value] of kept.headers) res.setHeader(name, value);
      res.end(kept.parts.join(nonce));
      return;
    }

    const mark: KeptDocumentMark = { keep: false };
    res.locals.keptDocument = mark;
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    // The chunks as written, not copies: Remix writes each once and does not reuse it.
    const copy = (chunk: unknown, encoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      chunks.push(
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(
              (chunk as Uint8Array).buffer,
              (chunk as Uint8Array).byteOffset,
              (chunk as Uint8Array).byteLength,
            ),
      );
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      copy(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      copy(chunk, rest[0]);
      if (
        mark.keep &&
        res.statusCode === 200 &&
        res.getHeader("set-cookie") === undefined &&
        /^text\/html/i.test(String(res.getHeader("content-type") ?? ""))
      ) {
        const html = Buffer.concat(chunks).toString("utf8");
        const headers: KeptDocument["headers"] = [];
        for (const name of DOCUMENT_HEADERS) {
          const value = res.getHeader(name);
          if (value !== undefined) headers.push([name, value]);
        }
        cache.set(key, { headers, parts: html.split(nonce), chars: html.length });
      }
      return end(chunk, ...rest);
    }) as Response["end"];
    next();
  };
}
