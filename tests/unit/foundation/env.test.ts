import { describe, expect, it } from "vitest";
import { ConfigurationError, parseEnv, sanitizeSecret } from "../../../app/server/platform/env.server";

describe("sanitizeSecret", () => {
  it("trims whitespace and trailing literal backslash-n, repeatedly", () => {
    expect(sanitizeSecret("  abc123\\n")).toBe("abc123");
    expect(sanitizeSecret("abc123\\n\\n ")).toBe("abc123");
    expect(sanitizeSecret("abc\n")).toBe("abc");
    expect(sanitizeSecret(undefined)).toBeUndefined();
  });
  it("keeps a backslash-n in the middle", () => {
    expect(sanitizeSecret("ab\\ncd")).toBe("ab\\ncd");
  });
});

describe("parseEnv", () => {
  it("applies defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.EMAIL_PROVIDER).toBe("resend");
    expect(env.DEPLOY_ENV).toBe("development");
    expect(env.RATE_LIMIT_MAX).toBe(2000);
  });

  it("sanitises the upstream key", () => {
    const env = parseEnv({ MARKETPLACE_API_KEY: " d687412e7b53146b2631dc01974ad0a4\\n" });
    expect(env.MARKETPLACE_API_KEY).toBe("d687412e7b53146b2631dc01974ad0a4");
    expect(env.warnings.filter((w) => w.startsWith("MARKETPLACE_API_KEY"))).toEqual([]);
  });

  it("warns, naming the setting, when the upstream key is empty or malformed", () => {
    const empty = parseEnv({ MARKETPLACE_API_KEY: " \\n", UPSTREAM: "fake" });
    expect(empty.warnings.some((w) => w.startsWith("MARKETPLACE_API_KEY") && w.includes("empty"))).toBe(true);
    const malformed = parseEnv({ MARKETPLACE_API_KEY: "has spaces in it!" });
    expect(malformed.warnings.some((w) => w.startsWith("MARKETPLACE_API_KEY") && w.includes("malformed"))).toBe(true);
  });

  it("takes UPSTREAM=fake in any case and refuses any other upstream name", () => {
    expect(parseEnv({ UPSTREAM: " Fake " }).UPSTREAM).toBe("fake");
    expect(parseEnv({ UPSTREAM: "" }).UPSTREAM).toBeUndefined();
    expect(() => parseEnv({ UPSTREAM: "mock" })).toThrow(/UPSTREAM must be "fake" or unset \(got "mock"\)/);
  });

  it("stops start-up on an unknown EMAIL_PROVIDER, listing the allowed values", () => {
    expect(() => parseEnv({ EMAIL_PROVIDER: "sendgrid" })).toThrow(ConfigurationError);
    expect(() => parseEnv({ EMAIL_PROVIDER: "sendgrid" })).toThrow(/EMAIL_PROVIDER must be one of: resend, ses/);
  });

  it("accepts both providers, case-insensitively", () => {
    expect(parseEnv({ EMAIL_PROVIDER: "SES" }).EMAIL_PROVIDER).toBe("ses");
    expect(parseEnv({ EMAIL_PROVIDER: "resend" }).EMAIL_PROVIDER).toBe("resend");
  });

  it("warns when DATABASE_URL is present but empty, and keeps it empty", () => {
    const env = parseEnv({ DATABASE_URL: "" });
    expect(env.DATABASE_URL).toBe("");
    expect(env.warnings.some((w) => w.startsWith("DATABASE_URL"))).toBe(true);
  });

  it("warns when the unsubscribe secret is missing", () => {
    expect(parseEnv({}).warnings.some((w) => w.startsWith("UNSUBSCRIBE_TOKEN_SECRET"))).toBe(true);
    expect(parseEnv({ UNSUBSCRIBE_TOKEN_SECRET: "s3cret" }).warnings.some((w) => w.startsWith("UNSUBSCRIBE"))).toBe(
      false,
    );
  });

  it("rejects a non-numeric port with the setting named", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
  });
});
