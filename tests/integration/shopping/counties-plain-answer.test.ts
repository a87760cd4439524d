import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as counties from "../../../app/routes/api.counties";
import { plainAnswers } from "../../../app/server/platform/plain-answers.server";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { REPO_ROOT } from "../../helpers/server";
import { configureShopping, UPSTREAM_KEY } from "./helpers";

/**
 * Decision 462: GET /api/counties's plain answer (what the API fast path writes, no web Response)
 * is the route module's answer byte for byte, for own data and for a ZIP only upstream knows; a
 * bad query throws, so the fast path leaves it to the route module (a 400 in the request's language).
 * Decision 464: an own-data answer is kept a minute by query string; one that needed the upstream
 * look-up is asked again every time.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream({
    apiKey: UPSTREAM_KEY,
    dataDir: path.join(REPO_ROOT, "tests", "fixtures", "upstream"),
  });
  configureShopping({ upstreamUrl: fake.url });
});
afterAll(() => fake.close());

async function throughRoute(url: string): Promise<Response> {
  return (await counties.loader({ request: new Request(url), params: {}, context: {} } as Parameters<
    typeof counties.loader
  >[0])) as Response;
}

describe("the counties plain answer", () => {
  it.each(["zip=75007&year=2027", "zip=75201", "zip=75002&year=2027"])(
    "%s: the route's answer, byte for byte",
    async (query) => {
      const url = `http://localhost/api/counties?${query}`;
      const plain = await plainAnswers["routes/api.counties"]!(url);
      const route = await throughRoute(url);
      expect(route.status).toBe(200);
      expect(plain.status).toBe(200);
      expect(plain.headers).toEqual(Object.fromEntries(route.headers));
      expect(plain.text).toBe(await route.text());
    },
  );

  it("throws for a bad query (the route module answers it)", async () => {
    const url = "http://localhost/api/counties?zip=abc";
    await expect(Promise.resolve().then(() => plainAnswers["routes/api.counties"]!(url))).rejects.toThrow();
    expect((await throughRoute(url)).status).toBe(400);
  });

  it("keeps an own-data answer, not one that needed the upstream look-up", async () => {
    const own = "http://localhost/api/counties?zip=75201&year=2026";
    const first = await plainAnswers["routes/api.counties"]!(own);
    expect(JSON.parse(first.text).source).toBe("own");
    expect(await plainAnswers["routes/api.counties"]!(own)).toBe(first);
    // Another query string is another answer.
    expect(await plainAnswers["routes/api.counties"]!(`${own}&state=TX`)).not.toBe(first);

    const upstreamOnly = "http://localhost/api/counties?zip=75002&year=2027";
    const a = await plainAnswers["routes/api.counties"]!(upstreamOnly);
    const b = await plainAnswers["routes/api.counties"]!(upstreamOnly);
    expect(JSON.parse(a.text).source).toBe("upstream");
    expect(b).not.toBe(a);
    expect(b.text).toBe(a.text);
  });
});
