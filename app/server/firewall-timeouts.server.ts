import http from "node:http";

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
  return server;
}
