import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Plan pages kept a minute for the same request (docs/decisions/420), over HTTP against the built
 * server: the same address again is the same document with this answer's own CSP nonce, not priced
 * again; another language, household or a page with coverage looked up is never answered from it.
 */
const PAGE =
  "/plans/10101TX0010004?zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  const csp = res.headers.get("content-security-policy") ?? "";
  return {
    status: res.status,
    html: await res.text(),
    type: res.headers.get("content-type") ?? "",
    nonce: /'nonce-([^']+)'/.exec(csp)?.[1] ?? "",
    timing: res.headers.get("server-timing") ?? "",
    setCookie: res.headers.get("set-cookie"),
  };
}
const priced = (timing: string) => /(^|, )pricing;dur=/.test(timing);
const nonces = (html: string) => [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);

describe("kept plan pages", () => {
  it("answers the same plan page again with the same document and this answer's own nonce", async () => {
    const first = await get(PAGE);
    const again = await get(PAGE);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(priced(first.timing)).toBe(true);
    expect(priced(again.timing)).toBe(false);
    expect(again.type).toMatch(/^text\/html/);
    // Each answer's scripts carry its own CSP nonce, and only it.
    expect(again.nonce).not.toBe(first.nonce);
    expect(nonces(first.html).length).toBeGreaterThanOrEqual(3);
    expect(new Set(nonces(first.html))).toEqual(new Set([first.nonce]));
    expect(new Set(nonces(again.html))).toEqual(new Set([again.nonce]));
    expect(again.html.includes(first.nonce)).toBe(false);
    // Otherwise the same document, byte for byte.
    expect(again.html.replaceAll(again.nonce, "N")).toBe(first.html.replaceAll(first.nonce, "N"));
  });

  it("never answers another household, language, or a page with a drug from it", async () => {
    await get(PAGE);
    const spanish = await get(PAGE, { "accept-language": "es" });
    expect(priced(spanish.timing)).toBe(true);
    expect(spanish.html).toMatch(/<html lang="es"/);
    expect(priced((await get(PAGE, { cookie: "lang=es" })).timing)).toBe(true);
    expect(priced((await get(PAGE.replace("income=36000", "income=36001"))).timing)).toBe(true);

    // A page that sets the language cookie is rendered every time.
    const asked = await get(`${PAGE}&lang=es`);
    expect(asked.setCookie).toMatch(/lang=es/);
    expect(priced((await get(`${PAGE}&lang=es`)).timing)).toBe(true);

    // A drug's coverage is looked up upstream: that page is never kept.
    const withDrug = `${PAGE}&drug=617318:Lipitor%2020%20mg`;
    expect((await get(withDrug)).status).toBe(200);
    expect(priced((await get(withDrug)).timing)).toBe(true);
  });

  it("leaves the page's data requests to Remix", async () => {
    await get(PAGE);
    const data = await get(PAGE.replace("?", ".data?"));
    expect(data.type).not.toMatch(/^text\/html/);
  });
});
