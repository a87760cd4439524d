import type { NextFunction, Request, Response } from "express";
import { turnQueue } from "../../app/server/platform/turns.server";
import type { IncomingMessage } from "node:http";
import { JSON_BODY_LIMIT_BYTES } from "../../app/server/platform/api.server";
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "../../app/server/platform/json-nesting";
import { discardBodyUpTo, keepInspectedBody, keepRefusedBody, readBodyUpTo } from "./body";
import { FirewallEngine, type Verdict } from "./engine";
import { isLarge, offLoopInspector } from "./inspector";
import {
  formFieldCount,
  MalformedMultipartError,
  MAX_FORM_FIELDS,
  readMultipartFields,
  TooManyFieldsError,
} from "./multipart";
import { ENGINE_INPUT_LIMITS, type RequestData } from "./request-data";
import { bodyKey } from "./part-keys";
import { logger } from "../../app/server/platform/logger.server";
import { uploadBudget, type UploadBudget } from "./upload-budget";

export { FirewallEngine, FIREWALL_BUDGET_MICROS, type Verdict } from "./engine";

/**
 * The request firewall (issue 8, issue 18; spec "Authentication" 4 and
 * "Errors"): every request's path, query, headers and JSON / form / multipart
 * text fields are judged by the WAF engine (server/firewall/engine.ts:
 * libddwaf with Datadog's recommended rules and a few service rules) before
 * any route sees them; a match answers 403 with a short JSON or HTML body (by
 * Accept). It also enforces the body limits: JSON, form and other
 * non-multipart bodies over 100 KB and multipart bodies over the upload
 * ceiling answer 413.
 *
 * Bodies are read into memory (at most limit + 1 byte), judged, then handed
 * to the route (server/remix-handler.ts) as those bytes. The engine's time
 * per request is bounded (FIREWALL_BUDGET_MICROS); a request whose inspection
 * ran out of time with nothing matched is refused with 503 and Retry-After,
 * never passed as clean (docs/decisions/374); overruns are logged and counted. Rules, measurements and the
 * false-positive process: docs/firewall.md.
 */

/** What a request whose inspection ran out of time is told to wait, in seconds. */
export const OVERRUN_RETRY_AFTER_SECONDS = 1;

/** What an upload refused for want of memory is told to wait, in seconds (docs/decisions/518). */
export const UPLOADS_BUSY_RETRY_AFTER_SECONDS = 5;

/** Upload bodies held at once, by declared size, unless the server says otherwise (UPLOAD_MEMORY_MB). */
export const UPLOAD_MEMORY_BYTES = 64 * 1024 * 1024;

/** The upload ceiling: the 10 MB file the upload route accepts, plus room
 * for the multipart boundaries and the small text fields around it. */
export const MULTIPART_LIMIT_BYTES = 10 * 1024 * 1024 + 64 * 1024;

type LogSink = { warn: (obj: object, msg: string) => void };

export interface FirewallOptions {
  /** Largest JSON, form or other non-multipart body, in bytes (default 100 KB). */
  bodyLimitBytes?: number;
  /** Largest multipart body, in bytes (default 10 MB + 64 KB). */
  multipartLimitBytes?: number;
  /**
   * Multipart bodies held at once, by declared size (default 64 MB, UPLOAD_MEMORY_MB): one that
   * does not fit is not read and is answered 503 with Retry-After (docs/decisions/518).
   */
  uploadMemoryBytes?: number;
  /** Where block and overrun lines go; default the service logger. */
  log?: LogSink;
  /** The engine (default: one built from the recommended and service rules). */
  engine?: FirewallEngine;
  /**
   * Build the default engine without its warm-up; the caller runs `firewall.engine.warmUp()` later
   * (server.ts: once the first answer is written, docs/decisions/461).
   */
  warmUpLater?: boolean;
  /**
   * Judge requests that hand the engine much to read in a worker thread (inspector.ts; default
   * true, which takes effect only in the compiled server).
   */
  inspectOffLoop?: boolean;
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/;
const TEXT_TYPE = /^text\/plain\b/;
const MULTIPART_TYPE = /^multipart\//;

export function requestFirewall(options: FirewallOptions = {}) {
  const bodyLimit = options.bodyLimitBytes ?? JSON_BODY_LIMIT_BYTES;
  const multipartLimit = options.multipartLimitBytes ?? MULTIPART_LIMIT_BYTES;
  const log = (): LogSink => options.log ?? logger();
  const engine = options.engine ?? new FirewallEngine(undefined, undefined, true, !options.warmUpLater);

  const inspector = options.inspectOffLoop === false ? undefined : offLoopInspector(logger);
  const uploads = uploadBudget(options.uploadMemoryBytes ?? UPLOAD_MEMORY_BYTES);

  /** A request's body judged: off the event loop when it hands the engine much to read. */
  const inspectWithBody = async (data: RequestData): Promise<Verdict> => {
    const prepared = engine.prepare(data);
    if ("verdict" in prepared) return prepared.verdict;
    if (inspector?.available && isLarge(prepared)) return engine.settle(prepared, await inspector.run(prepared), true);
    return engine.settle(prepared, engine.runPending(prepared));
  };

  const judge = (req: Request, res: Response, data: RequestData, bodyUnread: boolean): boolean =>
    decide(req, res, engine.inspect(data), bodyUnread);

  /** Answer a request by its verdict: whether it may go on to its route. */
  const decide = (req: Request, res: Response, verdict: Verdict, bodyUnread: boolean): boolean => {
    if (verdict.overrun || verdict.overLimit) {
      log().warn(
        {
          requestId: res.locals?.requestId,
          path: req.path,
          micros: Math.round(verdict.micros),
          overrun: verdict.overrun,
          overruns: engine.stats.overruns,
          overLimit: engine.stats.overLimit,
        },
        verdict.overrun ? "firewall time budget overrun" : "firewall refused a request larger than it reads",
      );
    }
    if (verdict.overLimit) {
      // More values or text than the engine is handed (ENGINE_INPUT_LIMITS): judging part of it
      // would let the rest through unread, so it is refused (docs/decisions/281).
      refuse(
        req,
        res,
        413,
        "payload_too_large",
        "Request too large",
        `The request carries more text than the service reads (at most ${ENGINE_INPUT_LIMITS.values} values and ${ENGINE_INPUT_LIMITS.chars.toLocaleString("en-US")} characters).`,
        bodyUnread,
      );
      return false;
    }
    if (verdict.blocked) {
      block(req, res, verdict, log(), bodyUnread);
      return false;
    }
    if (verdict.overrun) {
      // The budget ran out before every rule had run: "nothing matched so far" is not "clean".
      // Refused as busy, to be sent again in a moment (issue 30 item 5, docs/decisions/374).
      res.setHeader("retry-after", String(OVERRUN_RETRY_AFTER_SECONDS));
      refuse(
        req,
        res,
        503,
        "inspection_incomplete",
        "Service busy",
        "The service is too busy to check this request right now; nothing was done. Please try again in a moment.",
        bodyUnread,
      );
      return false;
    }
    return true;
  };

  const firewall = function firewall(req: Request, res: Response, next: NextFunction): void {
    const url = req.originalUrl || req.url || "/";
    if (req.method === "GET" || req.method === "HEAD" || !hasBody(req)) {
      if (judge(req, res, { url, headers: req.headers }, hasBody(req))) next();
      return;
    }

    const type = (req.headers["content-type"] ?? "").trim().toLowerCase();
    const declared = Number(req.headers["content-length"] ?? NaN);
    const multipart = MULTIPART_TYPE.test(type);
    const limit = multipart ? multipartLimit : bodyLimit;
    if (declared > limit) {
      tooLarge(req, res, next, limit, judge);
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
    if (multipart) {
      // Held from before the first byte is read until the answer is done (or the client gone).
      const held = uploads.reserve(Number.isFinite(declared) ? declared : limit);
      if (!held) {
        uploadsBusy(req, res, next, uploads, limit, log(), judge);
        return;
      }
      res.once("close", held.release);
    }
    readBodyUpTo(req, limit).then(async (read) => {
      if (read.kind === "failed") {
        // The client went away mid-body: nobody is left to answer.
        if (!res.headersSent) res.destroy();
        return;
      }
      if (read.kind === "too-large") {
        tooLarge(req, res, next, limit, judge);
        return;
      }
      let body: RequestData["body"];
      let key: string | undefined;
      try {
        ({ body, key } = await parseBody(read.body, type, req));
      } catch (error) {
        if (error instanceof TooManyFieldsError) {
          // Counted before parsing (forms) or as busboy reads (multipart): never parsed whole.
          refuse(req, res, 413, "payload_too_large", "Request too large", error.message, false);
          return;
        }
        if (error instanceof TooDeepJsonError) {
          refuse(req, res, 400, "malformed_json", "Request could not be read", error.message, false);
          return;
        }
        if (!(error instanceof MalformedMultipartError)) {
          next(error);
          return;
        }
        refuse(
          req,
          res,
          400,
          "bad_request",
          "Request could not be read",
          "The form could not be read as multipart/form-data.",
          false,
        );
        return;
      }
      // One body inspection per turn of the event loop: requests whose bodies arrived together
      // are inspected one by one with the loop's I/O read in between (a health check is answered
      // in between, issue 30 item 6), not all in the turn that read them.
      await bodyInspections.next();
      try {
        const verdict = await inspectWithBody({ url, headers: req.headers, body, bodyKey: key });
        if (!decide(req, res, verdict, false)) return;
      } catch (error) {
        next(error);
        return;
      }
      keepInspectedBody(req, read.body);
      next();
    }, next);
  };
  return Object.assign(firewall, { engine, uploads: uploads.stats });
}

/** Refusals for want of memory logged at most once a minute, with the count since. */
let lastBusyLog = 0;

/**
 * An upload that does not fit the upload budget is never held (docs/decisions/518): 503 with
 * Retry-After, its body read and thrown away as it arrives. A browser posting the form to its page gets that page,
 * drawn by its route with the note (as for a body over the limit); an API client gets the error shape.
 */
function uploadsBusy(
  req: Request,
  res: Response,
  next: NextFunction,
  budget: UploadBudget,
  limit: number,
  log: LogSink,
  judge: (req: Request, res: Response, data: RequestData, bodyUnread: boolean) => boolean,
): void {
  const now = Date.now();
  if (now - lastBusyLog > 60_000) {
    lastBusyLog = now;
    log.warn(
      {
        requestId: res.locals?.requestId,
        path: req.path,
        heldBytes: budget.stats.heldBytes,
        held: budget.stats.held,
        limitBytes: budget.stats.limitBytes,
        refused: budget.stats.refused,
      },
      "upload refused: the upload memory budget is full (UPLOAD_MEMORY_MB)",
    );
  }
  res.setHeader("retry-after", String(UPLOADS_BUSY_RETRY_AFTER_SECONDS));
  // The body (at most the ceiling) is read and thrown away rather than left unread on a closed
  // connection: with the connection closed, 94 of 100 refused clients saw a reset (EPIPE), not the 503.
  discardBodyUpTo(req, limit);
  if (formPostToPage(req)) {
    if (!judge(req, res, { url: req.originalUrl || req.url || "/", headers: req.headers }, false)) return;
    keepRefusedBody(req, { status: 503, limitBytes: budget.stats.limitBytes, multipart: true });
    next();
    return;
  }
  refuse(req, res, 503, "uploads_busy", "Service busy", UPLOADS_BUSY_MESSAGE, false);
}

export const UPLOADS_BUSY_MESSAGE =
  "The service is receiving many files right now, so this one was not read and nothing was stored. Please send it again in a moment.";

const bodyInspections = turnQueue();

/** A JSON body nested deeper than any route reads (app/server/platform/json-nesting.ts). */
class TooDeepJsonError extends Error {
  constructor() {
    super(TOO_DEEP_MESSAGE);
  }
}

/** Whether a request carries a body (RFC 9112 §6.3: Transfer-Encoding or a non-zero Content-Length). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = Number(req.headers["content-length"] ?? 0);
  return Number.isFinite(length) ? length > 0 : true;
}

/**
 * Read a buffered body the way the application will: JSON as JSON.parse
 * gives it, a form as URLSearchParams gives it, multipart text fields as
 * busboy gives them, text whole. Other types are not read by any route
 * (API routes answer 415; page actions read only form encodings), so they are
 * size-limited but not parsed.
 */
async function parseBody(
  body: Buffer,
  type: string,
  req: IncomingMessage,
): Promise<{ body: RequestData["body"]; key?: string }> {
  if (body.byteLength === 0) return { body: undefined };
  // Multipart fields depend on the boundary in a header as well: never keyed.
  if (MULTIPART_TYPE.test(type)) return { body: await readMultipartFields(body, req.headers) };
  const text = body.toString("utf8");
  // The same bytes read the same way are the same part: a short body judged clean is remembered
  // by them (docs/decisions/404), as the URL and headers are (decision 282).
  if (JSON_TYPE.test(type)) {
    // Nested past what any route accepts: refused here, unparsed, as the route would refuse it
    // (parsing 50,000 levels cost more than the rest of the request, docs/decisions/500).
    if (nestsDeeperThan(text)) throw new TooDeepJsonError();
    try {
      return { body: { json: JSON.parse(text) as unknown }, key: bodyKey("json", text) };
    } catch {
      // Not JSON after all: the route will answer 400; judge the raw text.
      return { body: { text }, key: bodyKey("text", text) };
    }
  }
  if (FORM_TYPE.test(type)) {
    if (formFieldCount(body) > MAX_FORM_FIELDS) throw new TooManyFieldsError();
    return { body: { fields: [...new URLSearchParams(text)] }, key: bodyKey("form", text) };
  }
  if (TEXT_TYPE.test(type) || type === "") return { body: { text }, key: bodyKey("text", text) };
  return { body: undefined };
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

function block(req: Request, res: Response, verdict: Verdict, log: LogSink, bodyUnread: boolean): void {
  const requestId = (res.locals?.requestId as string | undefined) ?? undefined;
  // The rule and where it matched, never the matched value: it may sit next
  // to an email address or an income in the same field.
  log.warn(
    { requestId, method: req.method, path: req.path, rule: verdict.rule, type: verdict.type, where: verdict.where },
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

/**
 * The most of a refused body read and thrown away so that its client sees the answer
 * (docs/decisions/524): three times the upload ceiling.
 */
export const DISCARD_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A body over the limit is never kept. An API client gets 413 in the error shape. A
 * browser posting a form to a page (or Remix's data request for the same submission)
 * gets that page, drawn by its route with an empty
 * form and a note of the refusal, so the error shows beside the form it came from
 * (status 413); nothing of the body reaches the route. A body that declares at most
 * DISCARD_MAX_BYTES (or nothing) is read and thrown away as it arrives: with the connection
 * closed on it, clients still sending saw a reset (EPIPE) instead of the 413, every time
 * (docs/decisions/524). A larger one is not read: the connection is closed.
 */
function tooLarge(
  req: Request,
  res: Response,
  next: NextFunction,
  limit: number,
  judge: (req: Request, res: Response, data: RequestData, bodyUnread: boolean) => boolean,
): void {
  const declared = Number(req.headers["content-length"] ?? NaN);
  const close = declared > DISCARD_MAX_BYTES;
  if (!close) discardBodyUpTo(req, DISCARD_MAX_BYTES);
  if (formPostToPage(req)) {
    // The address and headers are still judged like any other request's.
    if (!judge(req, res, { url: req.originalUrl || req.url || "/", headers: req.headers }, close)) return;
    if (close) res.setHeader("connection", "close");
    keepRefusedBody(req, {
      status: 413,
      limitBytes: limit,
      multipart: MULTIPART_TYPE.test((req.headers["content-type"] ?? "").trim().toLowerCase()),
    });
    next();
    return;
  }
  const size = limit >= 1024 * 1024 ? `${Math.floor(limit / (1024 * 1024))} MB` : `${Math.round(limit / 1024)} KB`;
  refuse(req, res, 413, "payload_too_large", "Request too large", `Request body is larger than ${size}.`, close);
}

/**
 * A browser's form POST to a page (Accept: text/html, or Remix's `?_data=` request for the same
 * submission): a refused body is handed to its route, which answers beside the form.
 */
function formPostToPage(req: Request): boolean {
  if (req.method !== "POST") return false;
  return wantsHtml(req) || (!req.path.startsWith("/api/") && /[?&]_data=/.test(req.originalUrl ?? ""));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
