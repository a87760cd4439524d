import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * One log line per request: request id, method, path, status, duration.
 * The query string is left out on purpose: it can carry ZIPs, incomes and ages
 * (the shopping state lives in the URL).
 */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: scrubPath(req.path),
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
        },
        "request",
      );
    });
    next();
  };
}

/** Path segments that look like email addresses are not logged (they are personal data). */
export function scrubPath(path: string): string {
  return path
    .split("/")
    .map((segment) => (/@|%40/i.test(segment) ? "[redacted]" : segment))
    .join("/");
}
