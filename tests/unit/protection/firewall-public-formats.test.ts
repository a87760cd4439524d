import { describe, expect, it } from "vitest";
import {
  markdownCode,
  markdownCodeLines,
  gotestwafPayloads,
  nemesidaPayloads,
  sqlmapRequests,
} from "../../fixtures/firewall/public/formats";
import { nearDuplicateKey } from "../../fixtures/firewall/public/load";

// The readers of round 5's public sources (docs/decisions/470), on inputs written for this test in
// the sources' shapes: what is read must not depend on a snapshot being present.
describe("round 5 public source readers", () => {
  it("reads the lines of fenced code blocks, not the prose or the fence's language", () => {
    const md = ["# List", "Some prose; with | pipes", "```bash", ";first line", "", "|second", "```", "after"].join(
      "\n",
    );
    expect(markdownCodeLines(md)).toEqual([";first line", "|second"]);
  });

  it("reads fenced blocks and inline code spans, not links in prose", () => {
    const md = "See http://outside.example/ and `http://10.0.0.1/x` here.\n```\nhttp://127.0.0.1:22/\n```\n";
    const code = markdownCode(md);
    expect(code).toContain("http://10.0.0.1/x");
    expect(code.some((c) => c.includes("http://127.0.0.1:22/"))).toBe(true);
    expect(code.join(" ")).not.toContain("outside.example");
  });

  it("writes sqlmap requests as 1<prefix> <payload><comment> <suffix>, placeholders filled", () => {
    const payloads = `<!-- documentation: <test><payload>prose</payload></test> --><root>
      <test><title>t1</title><request><payload>AND [RANDNUM]=[RANDNUM1]</payload><comment>[GENERIC_SQL_COMMENT]</comment></request></test>
      <test><title>union</title><request><payload/></request></test>
      <test><title>t2</title><request><payload>AND SLEEP([SLEEPTIME])</payload></request></test>
    </root>`;
    const boundaries = `<!-- header that mentions <boundary> in prose --><root>
      <boundary><prefix>'</prefix><suffix>AND '[RANDSTR]'='[RANDSTR]</suffix></boundary>
      <boundary><prefix>)</prefix><suffix></suffix></boundary>
    </root>`;
    // One value per placeholder name in a request, as sqlmap's agent does: [RANDNUM] is the first
    // number (4821), [RANDNUM1] the second (7306); both [RANDSTR]s are the first word (qvzk).
    expect(sqlmapRequests(payloads, boundaries)).toEqual([
      "1' AND 4821=7306-- - AND 'qvzk'='qvzk",
      "1) AND 4821=7306-- -",
      "1' AND SLEEP(5) AND 'qvzk'='qvzk",
      "1) AND SLEEP(5)",
    ]);
  });

  it("decodes XML entities in sqlmap payloads", () => {
    const payloads =
      "<root><test><request><payload>OR 1&lt;2 AND &apos;a&apos;=&quot;a&quot;</payload></request></test></root>";
    const boundaries = "<root><boundary><prefix></prefix><suffix></suffix></boundary></root>";
    expect(sqlmapRequests(payloads, boundaries)).toEqual([`1 OR 1<2 AND 'a'="a"`]);
  });

  it("compares strings after case, spacing, URL encoding and character references are undone", () => {
    const key = nearDuplicateKey("<script>alert(1)</script>");
    expect(nearDuplicateKey("%3CScRiPt%3Ealert( 1 )%3C/script%3E")).toBe(key);
    expect(nearDuplicateKey("&lt;script&gt;alert(1)&lt;/script&gt;")).toBe(key);
    expect(nearDuplicateKey("<script>alert(2)</script>")).not.toBe(key);
  });
});

// Round 9's fresh source (docs/decisions/489), in nemesida-waf's payload shape, written for this test.
describe("nemesida-waf payload reader", () => {
  const file = JSON.stringify({
    payload: [
      { ARGS: "q=;run%20thing", BODY: "q=;run thing", COOKIE: "c=;run thing", ENCODE: "", BLOCKED: true },
      { ARGS: "", COOKIE: "sid=<tag>", "USER-AGENT": "<tag>", BLOCKED: true },
      { "USER-AGENT": "plain agent", BLOCKED: true },
      { ARGS: "q=ordinary words", BLOCKED: false },
      { METHOD: "GET", BLOCKED: true },
    ],
  });

  it("reads each blocked entry once, from its first zone, less a parameter's name", () => {
    expect(nemesidaPayloads(file, true)).toEqual([
      { value: ";run%20thing", form: true },
      { value: "<tag>", form: false },
      { value: "plain agent", form: false },
    ]);
  });

  it("reads the false-positive entries apart, and nothing from a file that is not JSON", () => {
    expect(nemesidaPayloads(file, false)).toEqual([{ value: "ordinary words", form: true }]);
    expect(nemesidaPayloads("not json", true)).toEqual([]);
  });
});

describe("GoTestWAF test case reader (decision 498)", () => {
  it("reads the payload list as written and nothing else", () => {
    // A test case written for this test in GoTestWAF's documented shape.
    const doc = { payload: ["first value", "second; value", 42, null], encoder: ["Plain", "URL"], type: "Example" };
    expect(gotestwafPayloads(doc)).toEqual(["first value", "second; value"]);
    expect(gotestwafPayloads({ encoder: ["Plain"] })).toEqual([]);
    expect(gotestwafPayloads(undefined)).toEqual([]);
  });
});
