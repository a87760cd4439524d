import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  classifyValue,
  decodeEntities,
  decodeForms,
  decodeJsEscapes,
  isInspectedHeader,
  percentDecode,
  RULES,
} from "../../../server/firewall/rules";

describe("decoding before matching", () => {
  it("percent-decodes without throwing on broken sequences", () => {
    expect(percentDecode("%27%20OR%201%3D1")).toBe("' OR 1=1");
    expect(percentDecode("100%")).toBe("100%");
    expect(percentDecode("%zz%4")).toBe("%zz%4");
    expect(percentDecode("caf%C3%A9")).toBe("café");
    // A lone non-UTF-8 byte stays encoded; its ASCII neighbours decode.
    expect(percentDecode("%ff%2e")).toBe("%ff.");
    expect(percentDecode("%u003cscript")).toBe("<script");
    expect(percentDecode("%c0%ae%c0%ae%c0%af")).toBe("../");
  });

  it("decodes HTML character references, with or without the semicolon", () => {
    expect(decodeEntities("&lt;script&gt;")).toBe("<script>");
    expect(decodeEntities("&#60;&#x3C;&#x3c")).toBe("<<<");
    expect(decodeEntities("javascript&colon;")).toBe("javascript:");
    expect(decodeEntities("AT&T & Johnson & Johnson")).toBe("AT&T & Johnson & Johnson");
    expect(decodeEntities("&unknown;")).toBe("&unknown;");
  });

  it("decodes JavaScript escapes", () => {
    expect(decodeJsEscapes("\\u003cscript\\x3e")).toBe("<script>");
    expect(decodeJsEscapes("\\u{3c}")).toBe("<");
  });

  it("decodes up to three layers, then stops", () => {
    expect(decodeForms("%25253Cscript").decoded).toBe("<script");
    // A fourth layer is left as it is (no unbounded loops on hostile input).
    expect(decodeForms("%2525253Cscript").decoded).toBe("%3cscript");
  });

  it("normalises Unicode (fullwidth forms), drops invisible characters, lower-cases", () => {
    expect(decodeForms("＜ＳＣＲＩＰＴ＞").decoded).toBe("<script>");
    expect(decodeForms("<scr\u200bipt>").decoded).toBe("<script>");
    expect(decodeForms("Nguyễn").decoded).toBe("nguyễn");
  });

  it("turns SQL comments into spaces in the SQL form and keeps line breaks in the shell form", () => {
    const f = decodeForms("1/**/UNION/*!50000SELECT*/x\nid");
    expect(f.sql).toBe("1 union select x id");
    expect(f.shell).toBe("1/**/union/*!50000select*/x\nid");
    expect(decodeForms("c'a't${IFS}/etc").shell).toBe("cat /etc");
  });

  it("records a NUL byte seen at any layer", () => {
    expect(decodeForms("a%00b").hasNul).toBe(true);
    expect(decodeForms("a%2500b").hasNul).toBe(true);
    expect(decodeForms("a\u0000b").hasNul).toBe(true);
    expect(decodeForms("a0b").hasNul).toBe(false);
  });
});

describe("the rule set", () => {
  it("has unique ids, a family prefix and a reason for every rule", () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id.startsWith(`${rule.family}-`)).toBe(true);
      expect(rule.reason.length).toBeGreaterThan(40);
    }
  });

  it("is documented rule by rule in docs/firewall.md", () => {
    const doc = readFileSync(path.resolve(__dirname, "../../../docs/firewall.md"), "utf8");
    for (const rule of RULES) expect(doc, rule.id).toContain(`\`${rule.id}\``);
  });

  it("names the rule that matched", () => {
    expect(classifyValue("' OR 1=1 --")).toEqual({ blocked: true, rule: "sqli-quote-tautology", family: "sqli" });
    expect(classifyValue("<svg/onload=alert(1)>")).toMatchObject({ blocked: true, family: "xss" });
    expect(classifyValue("..%2f..%2fetc%2fpasswd")).toEqual({
      blocked: true,
      rule: "traversal-dot-dot",
      family: "traversal",
    });
    expect(classifyValue("| nc 10.0.0.1 4444")).toEqual({
      blocked: true,
      rule: "cmdi-separator-command",
      family: "cmdi",
    });
    expect(classifyValue("report.pdf%00.php")).toEqual({
      blocked: true,
      rule: "traversal-null-byte",
      family: "traversal",
    });
  });

  it("tells a quoted word in prose from an injected quote", () => {
    // The quote before "and" closes a quoted phrase: prose.
    expect(classifyValue('Wants "low deductible" and budget = 300').blocked).toBe(false);
    // The quote before "and" opens in the value, i.e. it closes the query's literal.
    expect(classifyValue('x" and budget = 300').blocked).toBe(true);
    expect(classifyValue('I said "no"-- then left').blocked).toBe(false);
    expect(classifyValue('admin"--').blocked).toBe(true);
  });

  it("needs a shell-shaped argument after an everyday word that is also a command", () => {
    expect(classifyValue("Tylenol; type 2 diabetes").blocked).toBe(false);
    expect(classifyValue("x; type C:\\Windows\\win.ini").blocked).toBe(true);
    expect(classifyValue("CPAP; sleep apnea").blocked).toBe(false);
    expect(classifyValue("x; sleep 10").blocked).toBe(true);
    expect(classifyValue("Bring:\nPhoto ID\nPay stubs").blocked).toBe(false);
    expect(classifyValue("127.0.0.1\nid").blocked).toBe(true);
  });

  it("classifies a hostile 100 KB value quickly (no runaway backtracking)", () => {
    const hostile = [
      '"a" or b=1 '.repeat(9000),
      "'".repeat(100_000),
      "<a ".repeat(33_000),
      "%25".repeat(33_000),
      "; ".repeat(50_000),
      "$(".repeat(50_000),
      "(select ".repeat(12_000),
      "&#".repeat(50_000),
      "/*".repeat(50_000),
    ];
    for (const value of hostile) {
      const started = performance.now();
      classifyValue(value);
      expect(performance.now() - started, value.slice(0, 10)).toBeLessThan(500);
    }
  });
});

describe("which headers are read", () => {
  it("reads User-Agent, Referer, Cookie and every X- header, and nothing structured", () => {
    for (const name of ["User-Agent", "referer", "cookie", "X-Forwarded-For", "x-request-id", "X-Anything"])
      expect(isInspectedHeader(name)).toBe(true);
    for (const name of [
      "accept",
      "accept-language",
      "content-type",
      "content-length",
      "host",
      "authorization",
      "sec-fetch-mode",
      "if-none-match",
      "origin",
    ]) {
      expect(isInspectedHeader(name)).toBe(false);
    }
  });
});
