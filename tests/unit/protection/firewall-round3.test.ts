import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decodedView } from "../../../server/firewall/decode";
import { FirewallEngine } from "../../../server/firewall/engine";
import { bareHost } from "../../../server/firewall/ssrf";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking, type AnyLocation } from "../../fixtures/firewall/measure";

/**
 * Issue 30 item 4, round 3 (docs/decisions/430-432): the shapes written from the public tuning
 * part's misses, each with an example written here (no public string is copied), and the
 * ordinary inputs written for the round (tests/fixtures/firewall/benign-round3.json, both of its
 * parts: they were written as checks, not as a corpus to measure) passing in every place.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

const blockedIn = (value: string, locations: readonly AnyLocation[]) => locationsBlocking(engine, value, locations);

const SHAPES: Record<string, string[]> = {
  "Windows batch and programs": [
    "& FOR /L %x IN (1,1,9) DO ping x",
    "&& if exist C:\\x.txt del C:\\x.txt",
    "| IF ERRORLEVEL 1 goto end",
    "& gpresult /r",
    "& wsl cat /etc/hosts",
  ],
  "tools, which/time, shell grammar": [
    "; ansible-inventory --graph",
    "| visudo -c",
    "which netcat",
    "; npm install evil-pkg",
    "x$((1+1))",
    "echo${IFS}hi",
    "c{u,r}l x",
    "; alias -p ll=rm",
    "x \\033[31m red",
    "cat > /tmp/x.sh",
  ],
  "SQL functions, casts, operators, statements": [
    "1 AND 1=unhex('41')",
    "1::jsonb",
    "x' RLIKE 'y",
    "1 ORDER BY 7",
    "1 XOR 1",
    "select name, version() from t",
    "declare @q varchar(99)",
    "CREATE FUNCTION f(x INT) RETURNS INT",
  ],
  "markup and script": [
    "<q onwhatever=1>",
    "'formaction=x",
    "&#x003c;b",
    "<?xml version='1.0'?>",
    '<!DOCTYPE x [<!ENTITY y SYSTEM "z">]>',
    "window['na'+'me']",
    "alert(document)",
    "x=confirm;x`1`",
  ],
  "encodings, wrappers, line breaks": ["%%35%%63windows", "%c0%ee%c0%ee/etc", "expect://ls", "a\rSet-Cookie: x"],
  "host names without a scheme": ["lvh.me/admin", "localhost:6379", "10.1.2.3:8080/x", "ip6-localhost/"],
};

describe("round 3 shapes", () => {
  for (const [shape, examples] of Object.entries(SHAPES))
    it(`refuses ${shape} in every structured place`, async () => {
      for (const value of examples) {
        const tested = LOCATIONS.filter((l) => l !== "header" || !/[\r\n]/.test(value));
        expect(await blockedIn(value, tested), value).toEqual(tested);
      }
    });

  it("reads a host name at the start of a value only when it is one", () => {
    expect(bareHost("lvh.me/")).toBe("lvh.me");
    expect(bareHost("localhost:8080")).toBe("localhost");
    expect(bareHost("12345NY0010001-01")).toBeUndefined();
    expect(bareHost("75/25")).toBeUndefined();
    expect(bareHost("0.25/0.5 mg")).toBeUndefined();
    expect(decodedView("ambetter.com/plans")).toBeUndefined();
    expect(decodedView("lvh.me/")).toContain("//127.0.0.1/");
  });

  it("keeps a Windows path's backslashes beside the shell's reading", () => {
    const view = decodedView("..0x5cwindows0x5csystem32") ?? "";
    expect(view).toContain("windows\\system32");
    expect(view).toContain("windowssystem32");
  });
});

describe("round 3 ordinary inputs (benign-round3.json, written for the round)", () => {
  const groups = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../../fixtures/firewall/benign-round3.json"), "utf8"),
  ) as Record<string, string[] | string>;
  const list = (name: string) => groups[name] as string[];

  it("passes every search and ordinary note in every place", async () => {
    expect(list("round3_searches").length).toBeGreaterThan(150);
    for (const value of [...list("round3_searches"), ...list("round3_ordinary")])
      expect(await blockedIn(value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS]), value).toEqual([]);
  });

  it("passes notes with line breaks in the free-text fields", async () => {
    for (const value of list("round3_multiline_notes"))
      expect(await blockedIn(value, FREE_TEXT_LOCATIONS), value).toEqual([]);
  });
});
