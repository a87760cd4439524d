import { beforeAll, describe, expect, it } from "vitest";
import { catalogueMatch } from "../../../server/firewall/catalogue";
import { CMDLETS, PROGRAMS, WORD_PROGRAMS } from "../../../server/firewall/catalogues.generated";
import { FirewallEngine } from "../../../server/firewall/engine";
import { userDocumentName } from "../../../server/firewall/user-paths";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking } from "../../fixtures/firewall/measure";

/**
 * Round 7 of issue 30 item 4. Decision 485: the shells' own command words (bash's builtins, cmd.exe's
 * built-in table, PowerShell's aliases and cmdlets) and the bare names Debian installs under a
 * flavour or a version join the catalogues. Decision 486: cmd.exe's IF with any command a shell
 * knows, the rest of the mail protocols' verbs after a line break, and bash's history expansion.
 * Every attack here was written for this test from the shells' and protocols' references.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("the catalogues hold the shells' own words", () => {
  const programs = new Set(PROGRAMS.split(" "));
  const words = new Set(WORD_PROGRAMS.split(" "));
  const cmdlets = new Set(CMDLETS.split(" "));

  it("PowerShell's cmdlets, from its source and its alias table", () => {
    expect(cmdlets.size).toBeGreaterThan(250);
    for (const cmdlet of [
      "get-childitem",
      "invoke-expression",
      "set-executionpolicy",
      "get-wmiobject",
      "test-connection",
    ])
      expect(cmdlets).toContain(cmdlet);
  });

  it("builtins and aliases that are no words among the programs, the rest among the words", () => {
    for (const name of ["pushd", "popd", "setlocal", "mklink", "gwmi", "iwmi", "ulimit", "shopt"])
      expect(programs).toContain(name);
    for (const name of ["cd", "copy", "del", "goto", "echo", "source", "export"]) expect(words).toContain(name);
    for (const name of ["cd", "copy", "echo", "help", "call"]) expect(programs).not.toContain(name);
  });

  it("the bare names of flavoured and versioned programs", () => {
    // lua5.4 → lua, bunzip2 → bunzip; nc.openbsd → nc, a word, stays among the words.
    for (const name of ["lua", "bunzip"]) expect(programs).toContain(name);
  });
});

describe("catalogueMatch, round 7", () => {
  it.each([
    "Get-ChildItem -Path C:\\ -Recurse",
    "Set-ExecutionPolicy Bypass -Scope Process",
    "Get-WmiObject Win32_Process",
    "Test-Connection 10.0.0.1",
    "x;Get-Process",
    "a | Stop-Process -Force",
    "$(Get-Content /etc/passwd)",
    "powershell -nop Get-Service",
    "pushd \\\\fileserver\\share",
    "xcopy c:\\users d:\\",
    "x;python3.10 -c 1",
    "if 1==1 hostname",
    'IF "%OS%"=="Windows_NT" nslookup evil.example',
    "IF NOT DEFINED FOO netstat -an",
    "a & if exist c:\\boot.ini certutil -f",
  ])("refuses a command line: %s", (value) => {
    expect(catalogueMatch(value)?.rule).toBe("svc-cmdi-023");
  });

  it.each([
    "get-help",
    "Get-together with family",
    "Copy-item from my letter",
    "Test-Path? no",
    "Out-of-network",
    "follow-up visit",
    "if a==b?",
    "IF coverage == yes",
    "IF coverage == yes then ok",
    "If exists, attach proof",
    "C:\\Users\\maria\\Documents\\card.pdf",
    "omega3 supplement",
    "vitamin b12 shots",
  ])("passes what a visitor types: %s", (value) => {
    expect(catalogueMatch(value)).toBeUndefined();
  });
});

describe("round 7's rules in the engine", () => {
  it.each([
    "hello\r\nSTARTTLS",
    "x@example.com\r\nCAPA",
    "x\r\nETRN example.com",
    "x\nBDAT 100 LAST",
    "x\r\na8 EXPUNGE",
    "x\r\nA4 UID MOVE 1:* Trash",
    "x\r\na2 GETACL INBOX",
    "hello\r\nLIST 1",
    "!-1",
    "x;!-2",
    "!?passwd?",
  ])("refuses %s in every structured place", async (value) => {
    const locations = LOCATIONS.filter((l) => !(l === "header" && /[\r\n]/.test(value)));
    expect(await locationsBlocking(engine, value, locations)).toEqual(locations);
  });

  it.each([
    "123 Main St\r\nApt 4",
    "Unit 2\nclose to the park",
    "PO Box 5\r\nHelp desk",
    "Line one\r\nCheck with Dr. Lee",
    "Notes\nDone",
    "Room 12\r\nCopy of card attached",
    "Great!!",
    "Wow!-1 day left",
    "Hello!?",
    "!important",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it("reads cmdlets and IF only in structured places, never in a note", async () => {
    expect(await locationsBlocking(engine, "Ran Get-ChildItem -Path C:\\ for him", FREE_TEXT_LOCATIONS)).toEqual([]);
    expect(await locationsBlocking(engine, "if 1==1 hostname", FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});

describe("a document on any drive, and the browsers' C:\\fakepath\\ (decision 487)", () => {
  it("reads only the file name", () => {
    expect(userDocumentName("D:\\docs\\w2.pdf")).toBe("w2.pdf");
    expect(userDocumentName("E:\\taxes\\2025\\1095a.pdf")).toBe("1095a.pdf");
    expect(userDocumentName("C:\\fakepath\\income statement.PNG")).toBe("income statement.PNG");
    expect(userDocumentName("d:/scans/paystub.jpg")).toBe("paystub.jpg");
  });

  it.each([
    "c:\\windows\\x.pdf",
    "C:\\Program Files\\x\\config.pdf",
    "d:\\inetpub\\wwwroot\\a.pdf",
    "c:\\xampp\\htdocs\\x.pdf",
    "c:\\programdata\\x.pdf",
    "c:\\secret\\passwords.txt",
    "c:\\x\\y\\z\\w.pdf",
    "d:\\..\\..\\boot.pdf",
    "c:\\.ssh\\id.pdf",
    "c:\\$recycle.bin\\x.pdf",
  ])("reads %s whole, and refuses it in every structured place", async (value) => {
    expect(userDocumentName(value)).toBeUndefined();
    expect(await locationsBlocking(engine, value, LOCATIONS)).toEqual([...LOCATIONS]);
  });

  it.each(["D:\\docs\\w2.pdf", "C:\\fakepath\\income.pdf", "F:\\scans\\paystub.jpg"])(
    "passes %s everywhere",
    async (value) => {
      expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
    },
  );
});
