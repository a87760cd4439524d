import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  locationsBlocking,
  structuredPlacesFor,
} from "../../fixtures/firewall/measure";

/**
 * Round 16 of issue 30 item 4 (docs/firewall.md, "Round 16"; decision 532): bash's history events
 * named by a command and closed by another separator or glued to "&" or "|" (svc-cmdi-030), and
 * FTP's commands after a line break (svc-crlf-007). Every string here was written for this test,
 * not taken from the grammar's sample or a corpus.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("round 16: history events and FTP commands", () => {
  it.each([
    // "!string" re-runs the last command starting with string; a separator, comment or quote follows.
    "; !wg &",
    "10001 && !cur #",
    "x')||!py'",
    "abc|!ncat)",
    "42\n!sh ;",
    "7; !?passwd? |",
    // Any event glued to "&" or "|" at the end of the value.
    "report.txt&&!!",
    "10001|!-2",
    "name@site.org&!$",
    "q|!nc",
    // FTP (RFC 959) after a line break: a path verb with a path, a verb alone, an address, SITE.
    "x\r\nCWD /var/www",
    "10001\nRNFR upload.txt\nRNTO shell.php",
    "a\r\nMKD ~/loot",
    "plan\r\nPASV\r\n",
    "q\nEPRT |2|::1|5282|",
    "q\r\nPORT 127,0,0,1,31,144",
    "z\r\nsite exec /bin/id",
  ])("refuses %s in every structured place", async (value) => {
    expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
  });

  it.each([
    // Exclamations in prose: after a word, a space before them, or the value ending after the word.
    "Tom & !Jerry",
    "Plan A; !new",
    "Yes; !!",
    "Great!! Thanks",
    "Deductible & !important",
    "Bronze | !Silver",
    "5!|3!",
    // A line opening with an FTP verb's letters as an abbreviation or word, with no path after it.
    "Dept\nMKD Medical Group",
    "Ref\nRMD distribution 2026",
    "Account\nAcct 12345",
    "Vitals\nsyst bp 120",
    "Line one\ncwd stands for current working directory",
    "Address\nSite 4, Building B",
    "Port\nport angeles clinic",
  ])("lets %s through everywhere", async (value) => {
    // A header cannot carry a line break: locationsBlocking skips it (requestWith gives no request).
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it("reads the history events only in structured places: a note may quote a shell", async () => {
    expect(await locationsBlocking(engine, "; !wg &", FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});
