import { beforeAll, describe, expect, it } from "vitest";
import { catalogueMatch } from "../../../server/firewall/catalogue";
import { PROGRAMS, SPANISH_WORD_PROGRAMS } from "../../../server/firewall/catalogues.generated";
import { FirewallEngine } from "../../../server/firewall/engine";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking } from "../../fixtures/firewall/measure";

/**
 * Round 9 of issue 30 item 4 (decision 489): a catalogued program after a separator with words
 * after it, unless its name is a Spanish word; a program named with ".exe" at the start of a
 * value; a word disguised by a leading quoted part or by ANSI-C quoting. Every string here was
 * written for this test from bash's manual (quoting), GTFOBins's and LOLBAS's command lines.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("the catalogue lists the programs named by Spanish words apart", () => {
  it("keeps them among the programs and lists them apart", () => {
    const programs = new Set(PROGRAMS.split(" "));
    const spanish = new Set(SPANISH_WORD_PROGRAMS.split(" "));
    for (const name of ["busco", "todo", "todos", "nano", "calibre"]) {
      expect(spanish).toContain(name);
      expect(programs).toContain(name);
    }
    for (const name of ["nmap", "wget", "ifconfig"]) expect(spanish).not.toContain(name);
  });
});

describe("catalogueMatch, round 9", () => {
  it.each([
    // A catalogued program after a separator, with words after it.
    "x&& wget example",
    "a | nmap scanme org",
    "1; ifconfig eth0 up",
    "q\nnmap host 80",
    "z`whoami now`",
    // A program named with ".exe" at the start.
    "eventvwr.exe",
    "write.exe",
    "logger.exe RUN notes",
    'C:\\Windows\\System32\\wsreset.exe "x"',
    // A word disguised by a leading quoted part or by ANSI-C quoting.
    '"i"d',
    "'c'at notes.txt",
    "$'who'ami",
    "wh$'o'ami",
  ])("refuses %s", (value) => {
    expect(catalogueMatch(value)).toEqual({ rule: "svc-cmdi-023", type: "command_injection" });
  });

  it.each([
    // A clause after a separator opening with a word, a name, a short abbreviation or Spanish.
    "Refill; call pharmacy",
    "mom & dad",
    "tom & jerry",
    "hmo & ppo plans",
    "pt & ot visits",
    "Hola; todos los planes",
    "Vivo en Juneau; busco un plan",
    "dental | vision",
    "Wasilla; Palmer",
    // A program named without ".exe", or a file that is not a program.
    "eventvwr",
    "myfile.exe",
    "the exe file won't open",
    // A quotation, not a disguise.
    '"I\'d rather keep Dr. Lee"',
    "'Tis the season",
    '"Best"Buy gift card',
    "$'500' deductible",
  ])("passes %s", (value) => {
    expect(catalogueMatch(value)).toBeUndefined();
  });
});

describe("round 9 in the engine", () => {
  it.each(["x&& wget example", "a | nmap scanme org", "eventvwr.exe", '"i"d', "$'who'ami"])(
    "refuses %s in every structured place",
    async (value) => {
      const locations = LOCATIONS.filter((l) => l !== "header" || !/[\r\n]/.test(value));
      expect(await locationsBlocking(engine, value, locations)).toEqual(locations);
    },
  );

  it.each(["Hola; todos los planes", "Vivo en Juneau; busco un plan", "mom & dad", "'Tis the season"])(
    "passes %s everywhere",
    async (value) => {
      expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
    },
  );

  it.each(["cat /etc/hosts", "ls /tmp", "ls / -la", "cat /flag", "more /[e]tc/hosts", "head /tmp/x y"])(
    "svc-cmdi-001 still refuses %s at the start of a value in every structured place",
    async (value) => {
      expect(await locationsBlocking(engine, value, LOCATIONS)).toEqual([...LOCATIONS]);
    },
  );

  it.each(["head /neck cancer", "cat / dog allergy", "find /doctors near me", "tail /bone pain"])(
    "svc-cmdi-001 passes %s, a path of one name followed by a word, everywhere",
    async (value) => {
      expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
    },
  );

  it("reads nothing of round 9 in a note", async () => {
    for (const value of ["x&& wget example", "eventvwr.exe", '"i"d'])
      expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});
