import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 17 item 4 over HTTP, as a browser without JavaScript sends the compare form: its tick boxes
 * (`compare`, repeated) and its button (`compare_go`) to /plans. 2 or 3 plans go on to the comparison;
 * 1 or 4 show the list again with the error in the tray, naming the field, and the ticks kept.
 */

const RESULTS = "/plans?zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self";
let server: RunningServer;
let plans: Array<{ id: string; name: string }>;

beforeAll(async () => {
  server = await startServer();
  const res = await fetch(`${server.url}/api/plans`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      income: 36000,
      household: { people: [{ age: 35 }] },
      place: { state: "TX", county_fips: "48113", zip: "75201" },
    }),
  });
  plans = ((await res.json()) as { plans: Array<{ id: string; name: string }> }).plans;
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const ticks = (n: number) =>
  plans
    .slice(0, n)
    .map((p) => `&compare=${p.id}`)
    .join("");

async function send(path: string) {
  const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), body: await response.text() };
}

/** The page's main content without the loader data Remix repeats in a script, and without React's text separators. */
const markup = (body: string) =>
  body
    .slice(body.indexOf('<main id="main">'))
    .split("<script")[0]
    .replace(/<!-- -->/g, "");
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;");

describe("the compare form without JavaScript", () => {
  it("2 or 3 ticks go on to the comparison of exactly those plans, household kept", async () => {
    expect(plans.length).toBeGreaterThan(4);
    for (const n of [2, 3]) {
      const res = await send(`${RESULTS}${ticks(n)}&compare_go=1`);
      expect(res.status).toBe(302);
      const to = new URL(res.location!, server.url);
      expect(to.pathname).toBe("/plans/compare");
      expect(to.searchParams.getAll("compare")).toEqual(plans.slice(0, n).map((p) => p.id));
      expect(to.searchParams.get("income")).toBe("36000");
      expect(to.searchParams.has("compare_go")).toBe(false);
      const compare = await send(`${to.pathname}${to.search}`);
      expect(compare.status).toBe(200);
      expect(markup(compare.body)).toContain(`Compare ${n} plans`);
    }
  });

  it("1 tick: the list again (400) with the error beside the Compare button, naming the field and the plan", async () => {
    const res = await send(`${RESULTS}${ticks(1)}&compare_go=1`);
    expect(res.status).toBe(400);
    const html = markup(res.body);
    expect(html).toContain("Plans in Dallas County, TX");
    expect(html).toMatch(
      new RegExp(
        `<p id="compare-error"[^>]*role="alert"[^>]*data-field="compare"[^>]*>Compare: you ticked 1 plan \\(${escapeHtml(plans[0].name).replace(/[()]/g, "\\$&")}\\)`,
      ),
    );
    // The ticked box is still ticked, and every tick box points to the error.
    expect(html).toMatch(new RegExp(`<input[^>]*id="compare-${plans[0].id}"[^>]*checked`));
    const boxes = html.match(/<input[^>]*name="compare"[^>]*form="compare-form"[^>]*>/g) ?? [];
    // One tick box per card of the page shown (the list is paged, 10 a page).
    expect(boxes.length).toBe(html.split('class="plan-card"').length - 1);
    expect(boxes.length).toBe(10);
    for (const box of boxes) {
      expect(box).toContain('aria-invalid="true"');
      expect(box).toContain('aria-describedby="compare-error"');
    }
    // The button says what is wrong, and the form brings the error into view when it is sent again.
    expect(html).toMatch(/<button[^>]*name="compare_go"[^>]*aria-describedby="compare-error"/);
    expect(html).toContain('action="/plans#compare-tray"');
  });

  it("4 ticks: the list again with 'at most 3', all four kept ticked", async () => {
    const res = await send(`${RESULTS}${ticks(4)}&compare_go=1`);
    expect(res.status).toBe(400);
    const html = markup(res.body);
    expect(html).toContain("Compare: you ticked 4 plans. Compare at most 3 at a time: untick one.");
    for (const p of plans.slice(0, 4)) expect(html).toMatch(new RegExp(`<input[^>]*id="compare-${p.id}"[^>]*checked`));
    expect(html).not.toMatch(new RegExp(`<input[^>]*id="compare-${plans[4].id}"[^>]*checked`));
  });

  it("paging keeps the ticks: the pager's links carry them, and the form sent from page 2 stays on page 2", async () => {
    const res = await send(`${RESULTS}${ticks(2)}`);
    const html = markup(res.body);
    const pager = html.slice(html.indexOf('aria-label="Pages of plans"'));
    const next = pager.match(/<a[^>]*href="([^"]*)"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="([^"]*)"/)!;
    const href = (next[1] ?? next[2]).replace(/&amp;/g, "&");
    const search = new URL(href, server.url).searchParams;
    expect(search.get("page")).toBe("2");
    expect(search.getAll("compare")).toEqual(plans.slice(0, 2).map((p) => p.id));
    // Page 2 shows the two ticks in its tray's form (by name) though their cards are on page 1.
    const page2 = markup((await send(href.split("#")[0])).body);
    expect(page2).toContain('<input type="hidden" name="page" value="2"/>');
    // From page 2: one more tick (a plan of page 2) and the button: to the comparison of all three, page kept for Back.
    const third = plans[10].id;
    const sent = await send(`${href.split("#")[0]}&compare=${third}&compare_go=1`);
    expect(sent.status).toBe(302);
    const to = new URL(sent.location!, server.url);
    expect(to.searchParams.getAll("compare")).toEqual([...plans.slice(0, 2).map((p) => p.id), third]);
    expect(to.searchParams.get("page")).toBe("2");
    // One tick from page 2: the error, on page 2.
    const one = await send(`${RESULTS}&page=2&compare=${third}&compare_go=1`);
    expect(one.status).toBe(400);
    expect(markup(one.body)).toContain(`Compare: you ticked 1 plan (${escapeHtml(plans[10].name)})`);
    expect(markup(one.body)).toContain(`data-plan-id="${third}"`);
  });

  it("in Spanish (lang=es) the tray and its error are in Spanish", async () => {
    const res = await send(`${RESULTS}&lang=es${ticks(1)}&compare_go=1`);
    expect(res.status).toBe(400);
    const html = markup(res.body);
    expect(html).toContain(`Comparar: marcó 1 plan (${escapeHtml(plans[0].name)}).`);
    expect(html).toContain("Comparar planes");
  });

  it("no tick at all: the error asks for 2 or 3", async () => {
    const res = await send(`${RESULTS}&compare_go=1`);
    expect(res.status).toBe(400);
    expect(markup(res.body)).toContain("Compare: tick “Compare” on 2 or 3 plans, then compare them.");
  });

  it("ticks in the URL without the button: the list (200), ticks kept, no error, carried by its links and forms", async () => {
    const res = await send(`${RESULTS}${ticks(2)}&compare=99999ZZ9999999`);
    expect(res.status).toBe(200);
    const html = markup(res.body);
    expect(html).toMatch(/<p id="compare-error"[^>]*><\/p>/);
    for (const p of plans.slice(0, 2)) expect(html).toMatch(new RegExp(`<input[^>]*id="compare-${p.id}"[^>]*checked`));
    // A plan not sold here is not a tick: dropped from every link.
    expect(html).not.toContain("99999ZZ9999999");
    // The plan pages' links keep the ticks, so "Back to all plans" keeps them.
    expect(html).toContain(`/plans/${plans[0].id}?`);
    expect(html).toMatch(
      new RegExp(`href="/plans/${plans[0].id}\\?[^"]*compare=${plans[0].id}&amp;compare=${plans[1].id}`),
    );
    // The sort-and-filter form keeps them as hidden fields.
    const filters = html.slice(html.indexOf('aria-label="Sort and filter plans"'));
    expect(filters.slice(0, filters.indexOf("</form>"))).toContain(`name="compare" value="${plans[0].id}"`);
  });

  it("the sort-and-filter form asks the browser to restore nothing (autocomplete off); without JavaScript its button lands on the list (#results)", async () => {
    const html = markup((await send(RESULTS)).body);
    expect(html).toMatch(/<form[^>]*aria-label="Sort and filter plans"[^>]*autocomplete="off"/i);
    // The tick boxes belong to the compare form: nor are they restored from before.
    expect(html).toMatch(/<form[^>]*id="compare-form"[^>]*autocomplete="off"/i);
    expect(html).toMatch(/<form[^>]*action="\/plans#results"[^>]*aria-label="Sort and filter plans"/);
    expect(html).toContain(">Show plans</button>");
    expect(html).toContain('id="results"');
    // The page is not kept (no-store) and renews an HttpOnly cookie holding only the time it was made,
    // so Chrome's back/forward cache drops an earlier copy (decision 261).
    const res = await fetch(`${server.url}${RESULTS}`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const made = res.headers.getSetCookie().find((c) => c.startsWith("plans_page_made="));
    expect(made).toMatch(/^plans_page_made=\d+; Path=\/plans; Max-Age=600; SameSite=Lax; HttpOnly$/);
  });
});
