import http from "node:http";
import type { Duplex } from "node:stream";
import { cspNonce, securityHeaders } from "./security-headers";

/**
 * Slow-client limits (issue 8 part 3). Node enforces `headersTimeout` and
 * `requestTimeout` only when its connection sweep runs, every
 * `connectionsCheckingInterval` ms (30 s by default, fixed when the server is
 * created). A server made by `app.listen()` therefore cuts a slow client
 * off anywhere between the timeout and the timeout + 30 s; a server made here
 * sweeps every second, so the limits below hold to within a second.
 */
export const SERVER_TIMEOUTS = {
  /** All request headers must arrive within this (slowloris). */
  headersTimeoutMs: 10_000,
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node checks the two limits above. */
  connectionsCheckingIntervalMs: 1_000,
} as const;

export type ServerTimeouts = { [K in keyof typeof SERVER_TIMEOUTS]: number };

/** An HTTP server for `handler` (an Express app) with the slow-client limits applied. */
export function createHttpServer(handler: http.RequestListener, overrides: Partial<ServerTimeouts> = {}): http.Server {
  const t = { ...SERVER_TIMEOUTS, ...overrides };
  const server = http.createServer(
    {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.requestTimeoutMs,
      keepAliveTimeout: t.keepAliveTimeoutMs,
      connectionsCheckingInterval: t.connectionsCheckingIntervalMs,
    },
    handler,
  );
  server.on("clientError", answerClientError);
  return server;
}

/** Answers Node's HTTP parser gives itself, before any middleware runs. */
const CLIENT_ERROR_ANSWERS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "headers_too_large",
    message: "The request line or headers are too large.",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: "Payload Too Large",
    code: "payload_too_large",
    message: "The request's chunk extensions are too large.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    code: "request_timeout",
    message: "The request took too long to arrive.",
  },
};
const MALFORMED_REQUEST = {
  status: 400,
  reason: "Bad Request",
  code: "bad_request",
  message: "The request could not be read as HTTP.",
};

/**
 * Node's own answer to a request it cannot parse (a URL or headers over
 * 16 KB, broken framing, a slow client's timeout) has an empty body; answer
 * the same status in the one JSON error shape instead (found by the fuzz
 * tests, docs/decisions/101-parser-level-errors-in-the-error-shape.md). Like
 * Node's default, write only if no answer has started, then close.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // `_httpMessage` is the in-flight response Node itself checks in its default handler.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const answer = CLIENT_ERROR_ANSWERS[error.code ?? ""] ?? MALFORMED_REQUEST;
    const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
    // The same security headers as every answer of the app (issue 18 item 6).
    const headers = Object.entries(securityHeaders(cspNonce()))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n${headers}connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
