import { plainJsonAnswer, type PlainAnswer } from "./api.server";
import { healthStatus } from "./health.server";
import { countiesForUrl } from "../shopping/counties-query.server";

/**
 * Plain answers of the API fast path (server/api-fast-path.ts, docs/decisions/462), by route id:
 * the route's answer to a plain GET as JSON text and headers, without a web Response. Making one
 * (undici's Response with its body stream) was most of a health check's own cost, and loading
 * undici (~20 ms) most of the first health check after a start. entry.server.tsx re-exports this
 * map, so the fast path finds it in the server build; the route module still answers everything
 * else (HEAD, other methods, errors), and the fast path falls back to it when a plain answer throws.
 * A plain answer is given the request's URL and nothing else: add a route here only if its answer
 * to a GET is a function of the URL and the process's state (no header, no cookie); any error it
 * throws is left to the route module, which answers it in the request's language.
 */
export const plainAnswers: Readonly<Record<string, (url: string) => PlainAnswer | Promise<PlainAnswer>>> =
  Object.freeze({
    "routes/api.health": () => plainJsonAnswer(healthStatus()),
    "routes/api.counties": async (url: string) => plainJsonAnswer(await countiesForUrl(url)),
  });
