import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUES } from "../../../app/i18n/catalogues.server";
import { englishFound } from "../../helpers/english-scan";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * The pages translated in issue 21's first pass, rendered in Spanish by the built server over
 * HTTP. Each is scanned for every English catalogue sentence: one found means a string was left
 * in English (or a component still holds its own English text).
 */
const TRANSLATED = ["/", "/privacy", "/terms", "/updates", "/updates?joined=1", "/unsubscribe?email=a@b.co&token=x"];

describe("Spanish pages", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the scan finds English: the English pages show the catalogue's sentences", async () => {
    const html = await (await fetch(`${server.url}/privacy?lang=en`)).text();
    expect(englishFound(html).length).toBeGreaterThan(15);
    expect(html).toContain('<html lang="en">');
  });

  for (const path of TRANSLATED) {
    it(`${path} with lang=es: <html lang="es">, no English catalogue sentence, language link keeps the query`, async () => {
      const url = `${path}${path.includes("?") ? "&" : "?"}lang=es`;
      const res = await fetch(server.url + url);
      expect([200, 400]).toContain(res.status);
      const html = await res.text();
      expect(html).toContain('<html lang="es">');
      expect(englishFound(html)).toEqual([]);
      // The link to English: same path, every parameter kept, lang swapped.
      const href = /<a href="([^"]*)" lang="en" hrefLang="en" data-testid="language-link"/.exec(html)?.[1];
      expect(href).toBeDefined();
      const link = new URL(href!.replace(/&amp;/g, "&"), server.url);
      const asked = new URL(url, server.url);
      expect(link.pathname).toBe(asked.pathname);
      asked.searchParams.set("lang", "en");
      expect([...link.searchParams].sort()).toEqual([...asked.searchParams].sort());
      // Search engines see both languages and the default.
      for (const lang of ["en", "es", "x-default"]) expect(html).toContain(`rel="alternate" hrefLang="${lang}"`);
    });
  }

  it("a 404 in Spanish is Spanish, title included", async () => {
    const res = await fetch(`${server.url}/no-such-page?lang=es`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("<title>No encontramos esa página</title>");
    expect(englishFound(html)).toEqual([]);
  });

  it("the waitlist form's validation messages come back in Spanish", async () => {
    const res = await fetch(`${server.url}/updates?lang=es`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=nope&zip=12&interest=",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Escriba un correo electrónico válido, por ejemplo nombre@ejemplo.com.");
    expect(html).toContain("Escriba un código postal de 5 dígitos.");
    expect(html).toContain("Elija qué lo trae por aquí.");
    expect(englishFound(html)).toEqual([]);
  });

  it("agent pages stay English and say so in Spanish", async () => {
    const html = await (await fetch(`${server.url}/agents?lang=es`)).text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("Estas páginas para agentes solo están disponibles en inglés.");
    expect(html).toContain('<div lang="en">');
  });

  it("Accept-Language: es on a first visit answers Spanish; lang=en in the URL wins and is kept in a cookie", async () => {
    const first = await fetch(`${server.url}/`, { headers: { "Accept-Language": "es-US,es;q=0.9,en;q=0.5" } });
    const firstHtml = await first.text();
    expect(firstHtml).toContain('<html lang="es">');
    expect(firstHtml).toContain(CATALOGUES.es.home.title);
    expect(first.headers.get("set-cookie")).toBeNull();
    expect(first.headers.get("vary")).toMatch(/Accept-Language, Cookie/);

    const chosen = await fetch(`${server.url}/terms?lang=en`, { headers: { "Accept-Language": "es" } });
    expect(await chosen.text()).toContain('<html lang="en">');
    const cookie = chosen.headers.get("set-cookie");
    expect(cookie).toMatch(/^lang=en; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/);

    // The cookie keeps the choice over Accept-Language on the next page, with no lang in its address.
    const next = await fetch(`${server.url}/privacy`, {
      headers: { "Accept-Language": "es", Cookie: cookie!.split(";")[0] },
    });
    expect(await next.text()).toContain('<html lang="en">');
  });

  it("the cookie keeps Spanish on pages opened without lang", async () => {
    const chosen = await fetch(`${server.url}/privacy?lang=es`);
    const cookie = chosen.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toBe("lang=es");
    const html = await (await fetch(`${server.url}/updates`, { headers: { Cookie: cookie } })).text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain(CATALOGUES.es.updates.intro);
  });

  it("the JSON API keeps codes and field names English; its messages follow Accept-Language only", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/waitlist`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ email: "nope", zip: "1", interest: "consumer" }),
      });
    const spanish = await post({ "Accept-Language": "es" });
    expect(spanish.status).toBe(400);
    const body = await spanish.json();
    expect(body.error.code).toBe("validation_failed");
    expect(Object.keys(body.error.fields).sort()).toEqual(["email", "zip"]);
    expect(body.error.fields.zip).toBe(CATALOGUES.es.validation.zipInvalid);
    expect(body.error.message).not.toMatch(/[Ee]nter|valid/);
    // A cookie is a page's choice, not an API client's: without Accept-Language the API answers English.
    const english = await (await post({ Cookie: "lang=es" })).json();
    expect(english.error.fields.zip).toBe("Enter a 5-digit ZIP code.");
  });
});
