import { describe, expect, it } from "vitest";
import { collect, partKeys } from "../../../server/firewall/request-data";
import { FirewallEngine } from "../../../server/firewall/engine";

/**
 * Decision 463 (issue 29, amending 282): a short protocol header (host, accept-encoding …) is
 * remembered by its own text, no digest worked out; the URL, cookies and every other header are
 * remembered by a SHA-256 digest only, so no personal text (a query, an address, a session) is kept.
 */
describe("the keys part verdicts are remembered by", () => {
  const data = {
    url: "/api/health",
    headers: {
      host: "127.0.0.1:3000",
      "accept-encoding": "gzip, deflate, br",
      "x-forwarded-for": "203.0.113.7",
      cookie: "sid=abc",
      "user-agent": "ua",
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    },
  };

  it("keys short protocol headers by their text and everything else by a digest", () => {
    const keys = partKeys(data)!;
    expect(keys).toContain("=host\u0000127.0.0.1:3000");
    expect(keys).toContain("=accept-encoding\u0000gzip, deflate, br");
    const text = keys.filter((k) => k.startsWith("="));
    expect(text).toHaveLength(2);
    // The URL, the forwarded address, the cookie, the user agent and a long accept header: digests only.
    for (const key of keys.filter((k) => !k.startsWith("="))) expect(key).toMatch(/^[uhc][A-Za-z0-9+/]{43}=$/);
    expect(keys.join(" ")).not.toContain("203.0.113.7");
    expect(keys.join(" ")).not.toContain("api/health");
  });

  it("gives the collected parts the same keys as the cheap check", () => {
    const collected = collect(data).parts.map((p) => p.key);
    expect(new Set(collected)).toEqual(new Set(partKeys(data)));
  });

  it("remembers a clean request, and judges a changed text-keyed header as a full run does", () => {
    const remembering = new FirewallEngine(undefined, 1_000_000);
    const full = new FirewallEngine(undefined, 1_000_000, false);
    expect(remembering.inspect(data).blocked).toBe(false);
    expect(remembering.inspect(data).remembered).toBe(true);
    const payloads = [
      "' or 1=1 --",
      "<script>alert(1)</script>",
      "../../etc/passwd",
      "() { :; }; /bin/cat x",
      "a\r\nSet-Cookie: x=1",
    ];
    for (const name of ["host", "accept-encoding", "connection"])
      for (const payload of payloads) {
        const request = { ...data, headers: { ...data.headers, [name]: payload } };
        expect(remembering.inspect(request).blocked, `${name}: ${payload}`).toBe(full.inspect(request).blocked);
        // Twice: a verdict remembered by text is the same as the first.
        expect(remembering.inspect(request).blocked, `${name}: ${payload}`).toBe(full.inspect(request).blocked);
      }
  });
});
