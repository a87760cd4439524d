import { beforeAll, describe, expect, it } from "vitest";
import { catalogueMatch } from "../../../server/firewall/catalogue";
import { PROGRAMS, SQL_CATALOGS, SQL_FUNCTIONS } from "../../../server/firewall/catalogues.generated";
import { FirewallEngine } from "../../../server/firewall/engine";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking, requestWith } from "../../fixtures/firewall/measure";

/**
 * docs/decisions/481: a program Debian ships, run after a shell separator, and a function
 * PostgreSQL, MariaDB or SQLite defines, called with "(", are read from catalogues, so a payload
 * built on a program or function no hand-written rule names is still refused in structured
 * places; English words, names and the marketplace's own words are in neither catalogue.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("the catalogues", () => {
  const programs = new Set(PROGRAMS.split(" "));
  const functions = new Set(SQL_FUNCTIONS.split(" "));
  const catalogs = new Set(SQL_CATALOGS.split(" "));

  it("name tens of thousands of programs and thousands of SQL functions", () => {
    expect(programs.size).toBeGreaterThan(30_000);
    expect(functions.size).toBeGreaterThan(2_000);
    for (const program of ["htop", "lastlog", "ncdu", "pwgen", "nmap", "socat", "base64"])
      expect(programs).toContain(program);
    for (const fn of ["pg_sleep", "extractvalue", "json_object", "randomblob", "weight_string"])
      expect(functions).toContain(fn);
    for (const table of ["pg_shadow", "pg_user", "tables_priv", "sqlite_sequence"]) expect(catalogs).toContain(table);
    for (const windows of ["dxdiag", "msinfo32", "mofcomp"]) expect(programs).toContain(windows);
  });

  it("leave out words visitors type: English, names, the marketplace's", () => {
    for (const word of ["callback", "curl", "pcp", "csr", "puf", "kate", "joe", "time", "who"])
      expect(programs).not.toContain(word);
    for (const word of ["version", "sleep", "count", "year", "left", "avg"]) expect(functions).not.toContain(word);
  });
});

describe("catalogueMatch", () => {
  it.each([
    "x;pwgen",
    "id=5;ncdu /",
    "1|sqlite3 /tmp/x.db",
    "a && pdftotext -layout f.pdf -",
    "time; ansible all -m ping\n",
    "';htop'",
    "strace ifconfig",
    "nohup htop",
    "htop -d 5",
  ])("reads a program run by a shell: %s", (value) => {
    expect(catalogueMatch(value)?.rule).toBe("svc-cmdi-023");
  });

  it.each([
    'h"t"op',
    "w'h'o'a'm'i",
    "ifco\\nfig -a",
    "ca$*t notes",
    "sl${}eep 5",
    "x & dxdiag.exe /t c:\\x.txt",
    "a|C:\\Windows\\System32\\msinfo32.exe",
    "x;mofcomp evil.mof",
  ])("reads a disguised program, and Windows's: %s", (value) => {
    expect(catalogueMatch(value)?.rule).toBe("svc-cmdi-023");
  });

  it.each([
    "select usename from pg_user",
    "1 and (select 1 from pg_stat_activity)",
    "x' union select * from tables_priv",
  ])("reads a database's own table: %s", (value) => {
    expect(catalogueMatch(value)?.rule).toBe("svc-sqli-013");
  });

  it.each(["char(", "select left(", "(trim (", "SPACE(", "concat_ws("])(
    "reads a value that is a call's opening and nothing more, word-named functions included: %s",
    (value) => {
      expect(catalogueMatch(value)?.rule).toBe("svc-sqli-013");
    },
  );

  it.each(["Date (today)", "Plan (", "hello (", "left (2 refills)", "Gold (HMO)"])(
    "passes a word and a parenthesis that are more than a call's opening, or no function: %s",
    (value) => {
      expect(catalogueMatch(value)).toBeUndefined();
    },
  );

  it.each(["1 and weight_string(0x41)", "1 OR pg_sleep (5)", "geometrycollection((select 1))"])(
    "reads a SQL function called: %s",
    (value) => {
      expect(catalogueMatch(value)?.rule).toBe("svc-sqli-013");
    },
  );

  it.each([
    "ssh",
    "nano clinic",
    "wget help",
    "time off request",
    "PCP & CSR",
    "HMO; PPO; EPO",
    "Time of call 3pm; callback tomorrow.",
    "Humira & Enbrel",
    "Dr. Nguyen; Dr. Patel",
    "Eliquis (apixaban)",
    "Silver (PPO)",
    "don't",
    "O'Brien's plan",
    "rock'n'roll",
    '"Gold" plan',
    "C:\\Users\\john\\file.pdf",
    "first_name",
    "plan_id=5",
    "Dr. Smith & Co.",
    "; callback tomorrow at 5.30",
    "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0",
  ])("passes what a visitor types: %s", (value) => {
    expect(catalogueMatch(value)).toBeUndefined();
  });
});

describe("the engine asks the catalogues", () => {
  it("in every structured place, when no rule matched", async () => {
    for (const value of ["x;pwgen", "1 and weight_string(0x41)"])
      for (const location of LOCATIONS) {
        const request = await requestWith(value, location);
        if (!request) continue;
        const verdict = engine.inspect(request);
        expect(verdict.blocked, `${value} in ${location}`).toBe(true);
        expect(verdict.rule).toMatch(/^svc-(cmdi-023|sqli-013)$/);
      }
  });

  it("never in free text, where a note may name anything", async () => {
    expect(await locationsBlocking(engine, "Gave him the pwgen output; pwgen", FREE_TEXT_LOCATIONS)).toEqual([]);
    expect(await locationsBlocking(engine, "asked about weight_string(x)", FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});
