import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * One log line per request: request id, method, path, status, duration.
 * The query string is left out on purpose: it can carry ZIPs, incomes and ages
 * (the shopping state lives in the URL).
 *
 * Nothing is made per request but the start time (issue 29): the `finish` listener is one
 * function per logger, reading the answer's request and start from the response.
 */
const STARTED = Symbol("request log start");
type LoggedResponse = Response & { [STARTED]: number; req: Request };

export function requestLog(log: Logger) {
  function logFinished(this: LoggedResponse): void {
    const req = this.req;
    log.info(
      {
        requestId: this.locals.requestId,
        method: req.method,
        path: scrubPath(req.path),
        status: this.statusCode,
        durationMs: Math.round((performance.now() - this[STARTED]) * 10) / 10,
      },
      "request",
    );
  }
  return (_req: Request, res: Response, next: NextFunction) => {
    (res as LoggedResponse)[STARTED] = performance.now();
    res.on("finish", logFinished);
    next();
  };
}

const PERSONAL_SEGMENT = /@|%40/i;

/** Path segments that look like email addresses are not logged (they are personal data). */
export function scrubPath(path: string): string {
  if (!PERSONAL_SEGMENT.test(path)) return path;
  return path
    .split("/")
    .map((segment) => (PERSONAL_SEGMENT.test(segment) ? "[redacted]" : segment))
    .join("/");
}
