import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unsubscribeToken, verifyUnsubscribeToken } from "../../../app/server/intake/unsubscribe-token.server";
import { openApiDocument } from "../../../app/server/platform/openapi.server";

/**
 * docs/api.md's unsubscribe token formula, taken at its word (issue 31 item 7): a client that builds
 * a token exactly as the page says gets a token the service accepts.
 */

const page = readFileSync(new URL("../../../docs/api.md", import.meta.url), "utf8");
const section = page.slice(page.indexOf("### /api/unsubscribe"), page.indexOf("### POST /api/enroll/applications"));

/** The formula's parts as the page writes them. */
function documentedFormula() {
  const formula = /token = base64url\(HMAC-SHA256\(key = (\w+), message = "([^"]+)" \+ address\)\)/.exec(section);
  const example = /the secret `([^`]+)` and the address `([^`]+)`, the token is\s+`([^`]+)`/.exec(section);
  if (!formula || !example) throw new Error("docs/api.md no longer states the token formula and its example");
  return {
    keySetting: formula[1]!,
    prefix: formula[2]!,
    secret: example[1]!,
    address: example[2]!,
    token: example[3]!,
  };
}

/** What the page says to do with the address: surrounding spaces removed, lower-cased. */
const asThePageSays = (address: string) => address.trim().toLowerCase();

function tokenFromThePage(secret: string, prefix: string, address: string): string {
  // base64url of RFC 4648 §5 without padding, as the page says.
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.from(prefix + asThePageSays(address), "utf8"))
    .digest("base64")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

describe("docs/api.md's unsubscribe token", () => {
  it("names the setting and the message prefix the service signs", () => {
    const { keySetting, prefix } = documentedFormula();
    expect(keySetting).toBe("UNSUBSCRIBE_TOKEN_SECRET");
    expect(prefix).toBe("unsubscribe:v1:");
  });

  it("its worked example is the token built from its words, and the service accepts it", () => {
    const { prefix, secret, address, token } = documentedFormula();
    expect(tokenFromThePage(secret, prefix, address)).toBe(token);
    expect(token).toHaveLength(43);
    expect(verifyUnsubscribeToken(address, token, secret)).toBe(true);
    expect(verifyUnsubscribeToken(address.toLowerCase(), token, secret)).toBe(true);
  });

  it("a token built from the page's words is the service's own, for any address and secret", () => {
    const { prefix } = documentedFormula();
    for (const [secret, address] of [
      ["s3cret-value-long-enough", "someone@example.org"],
      ["another secret", "  MiXeD.Case+tag@Sub.Example.com "],
      ["ñ-unicode-secret", "ana@example.com"],
    ] as const) {
      const built = tokenFromThePage(secret, prefix, address);
      expect(built).toBe(unsubscribeToken(address, secret));
      expect(verifyUnsubscribeToken(address, built, secret)).toBe(true);
      // The formula the page used to give (HMAC of the bare address) is refused.
      const bare = createHmac("sha256", secret).update(asThePageSays(address)).digest("base64url");
      expect(verifyUnsubscribeToken(address, bare, secret)).toBe(false);
    }
  });

  it("the OpenAPI document's token parameter says the same", () => {
    const doc = openApiDocument() as {
      paths: Record<string, { parameters?: { name: string; description?: string }[] }>;
    };
    const token = doc.paths["/api/unsubscribe"]!.parameters!.find((p) => p.name === "token")!;
    expect(token.description).toContain('"unsubscribe:v1:"');
    expect(token.description).toContain("UNSUBSCRIBE_TOKEN_SECRET");
    expect(token.description).toMatch(/lower-cased/);
  });
});
