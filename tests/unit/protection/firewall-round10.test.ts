import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  locationsBlocking,
  structuredPlacesFor,
} from "../../fixtures/firewall/measure";
import {
  plusForSpace,
  shellGrammar,
  shellGrammarHalves,
  shellGrammarSample,
} from "../../fixtures/firewall/shell-grammar";

/**
 * Round 10 of issue 30 item 4 (docs/firewall.md, "Round 10"): the three shapes a grammar of shell
 * injections (separators × prefixes × commands × spacing × endings, written from the bash manual)
 * found passing in a structured field. Every string here was written for this test.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("round 10: shapes found by the grammar", () => {
  it.each([
    // A command substituted with backquotes right after a separator, whatever its arguments.
    ";`echo id`",
    "x&&`echo whoami`&",
    "report.pdf | `printf id`",
    "1\n`echo\tid`",
    "$(`echo id`)",
    // ps, who, free and the like closed by a quote of the value around them.
    ';ps aux"',
    "x&&ps -ef'",
    "a|who'",
    // A sleep after a line break, closed by a quote.
    "doc\nsleep 5'",
    'name\r\nsleep\t10"',
    // The second half: a wrapper that runs the command, process substitution, an ending "--", a
    // variable run in a subshell, a globbed path substituted.
    "75201;time id'",
    "x&&nice -n 5 id",
    "foo.pdf>(whoami)",
    "1)<(id)&&",
    "x;id --",
    "foo.pdf ;sleep 5 --",
    "$(x=whoami;$x)",
    "x$(/b??/i?)",
  ])("refuses %s in every structured place", async (value) => {
    expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
  });

  it.each([
    // Backquotes after a separator around a word that is not a command.
    "plan; `Gold` tier",
    "Dallas | `Silver` plans",
    // ps, who and free as words, and a number after a line break.
    'He said "ps" and left',
    "who's covered?",
    "Prices; free shipping",
    "Address\n5 Main St'",
    "Wait\nsleep well",
    "Appointments; time id needed",
    "income >(50000)",
    "Kids (5<(6+1))",
    "Dallas; see plans --",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it("reads none of them in a note", async () => {
    for (const value of [";`echo id`", ';ps aux"', "doc\nsleep 5'"])
      expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});

describe("the grammar's corpus", () => {
  it("has every combination once in three parts, a fixed sample of each part, and no string in both parts", () => {
    // First half: 9 befores × 15 separators × 57 command lines × 5 spacings × 10 endings, less the
    // strings two combinations write alike (a line without a space is the same in every spacing).
    // Second half: 10 × 14 × 41 × 10, less what the first half already has. Third part (round 11):
    // 7 × 9 × (29 templates × 6 commands + 14 history events + 20 PowerShell lines) × 7 = 91,728,
    // less what the halves already have and what two combinations write alike.
    const [first, second, third] = shellGrammarHalves();
    expect(first.length).toBe(306_450);
    expect(second.length).toBe(56_725);
    expect(third.length).toBe(91_154);
    expect(new Set(shellGrammar()).size).toBe(306_450 + 56_725 + 91_154);
    const sample = shellGrammarSample();
    expect(sample.map((s) => s.half)).toEqual(["first half", "second half", "third part"]);
    for (const { tuning, heldOut } of sample) {
      expect(tuning).toHaveLength(2_000);
      expect(heldOut).toHaveLength(2_000);
      const held = new Set(heldOut);
      expect(tuning.filter((v) => held.has(v))).toEqual([]);
    }
    // The same sample every time.
    expect(shellGrammarSample()[1]!.tuning.slice(0, 5)).toEqual(sample[1]!.tuning.slice(0, 5));
    expect(plusForSpace(";ls+-la")).toBe(true);
    expect(plusForSpace(";ls -la")).toBe(false);
  });
});
