import { parseWith } from "../platform/api.server";
import { CountiesQuery } from "../../schemas/shopping";
import { lookUpCounties } from "./counties.server";

/**
 * GET /api/counties's answer for a request URL (docs/api.md): the query string checked, then the
 * counties, largest share first. The route module (app/routes/api.counties.ts) and the API fast
 * path's plain answer (app/server/platform/plain-answers.server.ts, decision 462) both answer with
 * it; a bad query throws the route's 400 ApiError.
 */
export async function countiesForUrl(url: string) {
  const query = parseWith(CountiesQuery, Object.fromEntries(new URL(url).searchParams), "query string");
  return lookUpCounties(query);
}
