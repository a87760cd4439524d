import { plainJsonAnswer, type PlainAnswer } from "./api.server";
import { healthStatus } from "./health.server";

/**
 * Plain answers of the API fast path (server/api-fast-path.ts, docs/decisions/462), by route id:
 * the route's answer to a plain GET as JSON text and headers, without a web Response. Making one
 * (undici's Response with its body stream) was most of a health check's own cost, and loading
 * undici (~20 ms) most of the first health check after a start. entry.server.tsx re-exports this
 * map, so the fast path finds it in the server build; the route module still answers everything
 * else (HEAD, other methods, errors), and the fast path falls back to it when a plain answer throws.
 * A plain answer reads nothing of the request: add a route here only if its answer to a GET is a
 * function of the process's state alone.
 */
export const plainAnswers: Readonly<Record<string, () => PlainAnswer>> = Object.freeze({
  "routes/api.health": () => plainJsonAnswer(healthStatus()),
});
