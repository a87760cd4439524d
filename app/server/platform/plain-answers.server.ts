import { plainJsonAnswer, type PlainAnswer } from "./api.server";
import { cachesPerOwner } from "./cache.server";
import { healthStatus } from "./health.server";
import { planStore } from "../plan-store/plan-store.server";
import { countiesForUrl } from "../shopping/counties-query.server";
import { marketplaceDate } from "../shopping/plan-year.server";

/**
 * Own-data county answers kept a minute by query string (docs/decisions/464): every visitor's first
 * step asks for the counties of their ZIP, and the answer is a function of the query, the store
 * file and the marketplace date (the plan year shopped by default), all in the key. An answer that
 * needed the upstream look-up (a ZIP missing from own data) is never kept, so an outage's answer
 * never outlives it.
 */
export const KEPT_COUNTIES_TTL_MS = 60_000;
const keptCounties = cachesPerOwner<string, PlainAnswer>({ limit: 5_000, ttlMs: KEPT_COUNTIES_TTL_MS });

async function countiesAnswer(url: string): Promise<PlainAnswer> {
  const store = planStore();
  const cache = keptCounties(store.version());
  const query = url.indexOf("?");
  const key = `${marketplaceDate(new Date())}|${query < 0 ? "" : url.slice(query)}`;
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const answer = await countiesForUrl(url);
  const plain = plainJsonAnswer(answer);
  if (answer.source === "own") cache.set(key, plain);
  return plain;
}

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
    "routes/api.counties": countiesAnswer,
  });
