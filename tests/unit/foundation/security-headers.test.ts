import { describe, expect, it } from "vitest";
import { cspNonce, securityHeaders } from "../../../server/security-headers";

describe("securityHeaders", () => {
  it("has the exact required values", () => {
    const h = securityHeaders("abc");
    expect(h["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains; preload");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBeTruthy();
    expect(h.server).toBe("health-plan-marketplace");
  });
  it("allows scripts only from self and the request's nonce", () => {
    const csp = securityHeaders("n0nce")["content-security-policy"];
    expect(csp).toContain("script-src 'self' 'nonce-n0nce'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
  });
  it("lets the browser reach the analytics host only when one is configured", () => {
    expect(securityHeaders("n", "https://us.i.posthog.com")["content-security-policy"]).toContain(
      "https://us.i.posthog.com",
    );
    expect(securityHeaders("n")["content-security-policy"]).not.toContain("posthog");
  });
  it("gives every request its own 16-byte nonce, across pool refills", () => {
    const nonces = Array.from({ length: 1_000 }, () => cspNonce()); // ~4 refills of the 256-nonce pool
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    // Not all-zero or repeated bytes: the pool is filled, not just allocated.
    expect(nonces.filter((n) => n === Buffer.alloc(16).toString("base64"))).toEqual([]);
  });
});

describe("setSecurityHeaders (worked out once per analytics host)", () => {
  it("sets exactly what securityHeaders gives, with this answer's nonce", async () => {
    const { setSecurityHeaders } = await import("../../../server/security-headers");
    for (const host of [undefined, "https://us.i.posthog.com"])
      for (const nonce of ["abc", "n0nce+/="]) {
        const set: Record<string, string> = {};
        setSecurityHeaders({ setHeader: (name: string, value: string) => (set[name] = value) }, nonce, host);
        expect(set).toEqual(securityHeaders(nonce, host));
      }
  });
});
