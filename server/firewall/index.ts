import type { NextFunction, Request, Response } from "express";
import type { IncomingMessage } from "node:http";
import { JSON_BODY_LIMIT_BYTES } from "../../app/server/platform/api.server";
import { keepInspectedBody, meterRequestBody, readBodyUpTo } from "./body";
import { classifyRequestParts, type Classification, type RequestParts } from "./rules";
import { logger } from "../../app/server/platform/logger.server";

export { classifyRequestParts, classifyValue, RULES, isInspectedHeader } from "./rules";
export type { Classification, RequestParts } from "./rules";

/**
 * The request firewall (issue 8, spec "Authentication" 4 and "Errors"):
 * every request's path, query, free-text headers and JSON / form / text body
 * are classified by server/firewall/rules.ts before any route sees them; a
 * match answers 403 with a short JSON or HTML body (by Accept). It also
 * enforces the body limits: JSON, form and other non-multipart bodies over
 * 100 KB and multipart bodies over the upload ceiling answer 413.
 *
 * Non-multipart bodies are read into memory (at most limit + 1 byte), judged,
 * then handed back to the request so @remix-run/express reads them intact.
 * Multipart bodies (uploads) stream through uncounted by memory, only metered.
 * Rules and the false-positive process: docs/firewall.md.
 */

/** The upload ceiling: the 10 MB file the upload route accepts, plus room
 * for the multipart boundaries and the small text fields around it. */
export const MULTIPART_LIMIT_BYTES = 10 * 1024 * 1024 + 64 * 1024;

type LogSink = { warn: (obj: object, msg: string) => void };

export interface FirewallOptions {
  /** Largest JSON, form or other non-multipart body, in bytes (default 100 KB). */
  bodyLimitBytes?: number;
  /** Largest multipart body, in bytes (default 10 MB + 64 KB). */
  multipartLimitBytes?: number;
  /** Where block lines go; default the service logger. */
  log?: LogSink;
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/;
const TEXT_TYPE = /^text\/plain\b/;
const MULTIPART_TYPE = /^multipart\//;

export function requestFirewall(options: FirewallOptions = {}) {
  const bodyLimit = options.bodyLimitBytes ?? JSON_BODY_LIMIT_BYTES;
  const multipartLimit = options.multipartLimitBytes ?? MULTIPART_LIMIT_BYTES;
  const log = (): LogSink => options.log ?? logger();

  return function firewall(req: Request, res: Response, next: NextFunction): void {
    const url = req.originalUrl || req.url || "/";
    const q = url.indexOf("?");
    const parts: RequestParts = {
      path: q === -1 ? url : url.slice(0, q),
      query: q === -1 ? "" : url.slice(q + 1),
      headers: req.headers,
    };
    const head = classifyRequestParts(parts);
    if (head.blocked) {
      block(req, res, head, log(), hasBody(req));
      return;
    }
    if (req.method === "GET" || req.method === "HEAD" || !hasBody(req)) {
      next();
      return;
    }

    const type = (req.headers["content-type"] ?? "").trim().toLowerCase();
    const declared = Number(req.headers["content-length"] ?? NaN);

    if (MULTIPART_TYPE.test(type)) {
      if (declared > multipartLimit) {
        tooLarge(req, res, multipartLimit, true);
        return;
      }
      meterRequestBody(req, multipartLimit, (fail) => {
        if (!res.headersSent) {
          tooLarge(req, res, multipartLimit, true);
          sealResponse(res);
        }
        res.once("finish", fail);
        if (res.writableFinished) fail();
      });
      next();
      return;
    }

    if (declared > bodyLimit) {
      tooLarge(req, res, bodyLimit, true);
      return;
    }
    const encoding = String(req.headers["content-encoding"] ?? "identity")
      .trim()
      .toLowerCase();
    if (encoding !== "identity" && encoding !== "") {
      // Nothing here decompresses request bodies, so routes would read the bytes as sent:
      // a plain body labelled gzip would reach them uninspected (docs/decisions/104).
      refuse(
        req,
        res,
        415,
        "unsupported_media_type",
        "Unsupported encoding",
        "Send the request body uncompressed (no Content-Encoding).",
        true,
      );
      return;
    }
    readBodyUpTo(req, bodyLimit).then((read) => {
      if (read.kind === "failed") {
        // The client went away mid-body: nobody is left to answer.
        if (!res.headersSent) res.destroy();
        return;
      }
      if (read.kind === "too-large") {
        tooLarge(req, res, bodyLimit, true);
        return;
      }
      const verdict = classifyBody(read.body, type, req.headers["content-encoding"]);
      if (verdict.blocked) {
        block(req, res, verdict, log(), false);
        return;
      }
      keepInspectedBody(req, read.body);
      next();
    }, next);
  };
}

/** Whether a request carries a body (RFC 9112 §6.3: Transfer-Encoding or a non-zero Content-Length). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = Number(req.headers["content-length"] ?? 0);
  return Number.isFinite(length) ? length > 0 : true;
}

/**
 * Judge a buffered body the way the application will read it: JSON field by
 * field, a form pair by pair, text whole. Other types (and compressed bodies)
 * are not read by any route (API routes answer 415; Remix reads only form
 * encodings), so they are size-limited but not parsed.
 */
function classifyBody(body: Buffer, type: string, encoding: string | undefined): Classification {
  if (body.byteLength === 0) return { blocked: false };
  if (encoding && encoding.toLowerCase() !== "identity") return { blocked: false };
  const text = body.toString("utf8");
  if (JSON_TYPE.test(type)) {
    try {
      return classifyRequestParts({ json: JSON.parse(text) as unknown });
    } catch {
      // Not JSON after all: the route will answer 400; judge the raw text.
      return classifyRequestParts({ text });
    }
  }
  if (FORM_TYPE.test(type)) return classifyRequestParts({ form: text });
  if (TEXT_TYPE.test(type) || type === "") return classifyRequestParts({ text });
  return { blocked: false };
}

function wantsHtml(req: Request): boolean {
  // API paths always get JSON; elsewhere a browser (Accept: text/html) gets a page.
  if (req.path.startsWith("/api/")) return false;
  return req.accepts(["json", "html"]) === "html";
}

function refuse(
  req: Request,
  res: Response,
  status: number,
  code: string,
  title: string,
  message: string,
  closeConnection: boolean,
) {
  if (res.headersSent) return;
  res.status(status);
  res.setHeader("cache-control", "no-store");
  // A body we did not read is never read: end the connection with the answer
  // instead of draining megabytes first.
  if (closeConnection) res.setHeader("connection", "close");
  if (wantsHtml(req)) {
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
          `<body><h1>${title}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the start</a></p></body></html>`,
      );
  } else {
    res.json({ error: { code, message } });
  }
}

function block(req: Request, res: Response, verdict: Classification, log: LogSink, bodyUnread: boolean): void {
  const requestId = (res.locals?.requestId as string | undefined) ?? undefined;
  // The rule and where it matched, never the matched value: it may sit next
  // to an email address or an income in the same field.
  log.warn(
    { requestId, method: req.method, path: req.path, rule: verdict.rule, where: verdict.where },
    "request blocked by firewall",
  );
  const reference = requestId ? ` Reference: ${requestId}.` : "";
  refuse(
    req,
    res,
    403,
    "forbidden",
    "Request blocked",
    `This request was blocked because part of it looks like an attack. If you only typed ordinary text, please tell us what you entered.${reference}`,
    bodyUnread,
  );
}

function tooLarge(req: Request, res: Response, limit: number, bodyUnread: boolean): void {
  const size = limit >= 1024 * 1024 ? `${Math.floor(limit / (1024 * 1024))} MB` : `${Math.round(limit / 1024)} KB`;
  refuse(req, res, 413, "payload_too_large", "Request too large", `Request body is larger than ${size}.`, bodyUnread);
}

/**
 * After the firewall has answered mid-request (an upload over the ceiling),
 * the route further down still finishes and tries to write its own answer;
 * drop those writes instead of failing with ERR_HTTP_HEADERS_SENT.
 */
function sealResponse(res: Response): void {
  const noop = () => res;
  for (const name of ["setHeader", "appendHeader", "removeHeader", "writeHead", "flushHeaders"]) {
    Object.defineProperty(res, name, { value: noop, configurable: true, writable: true });
  }
  Object.defineProperty(res, "write", { value: () => true, configurable: true, writable: true });
  Object.defineProperty(res, "end", {
    value: (...args: unknown[]) => {
      const callback = args.find((a) => typeof a === "function") as (() => void) | undefined;
      callback?.();
      return res;
    },
    configurable: true,
    writable: true,
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
