import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  locationsBlocking,
  structuredPlacesFor,
} from "../../fixtures/firewall/measure";

/**
 * Round 11 of issue 30 item 4 (docs/firewall.md, "Round 11"; decision 494): the sections of bash(1)
 * and PowerShell's references that round 10's grammar left out (pipelines, compound commands,
 * builtins, history expansion, cmdlets). Every string here was written for this test.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("round 11: bash's compound commands, builtins and history, PowerShell's cmdlets", () => {
  it.each([
    // A negated pipeline, coproc, command -p, and a command given quoted to eval or exec.
    "x; ! whoami",
    "foo.pdf|! cat /etc/passwd'",
    "1)&&coproc id",
    "x;command -p uname -a",
    "x;eval 'id'",
    'a|exec "cat /etc/passwd"',
    // A sleep behind a word that runs it.
    "75201;builtin sleep 5",
    "$(eval 'sleep 5') &",
    "x\nexec sleep 10#",
    // Compound commands and trap.
    "x;case a in a) id;; esac",
    "'\ncase $x in *) ls -la /;;esac",
    "foo.pdf&&if [ 1 ]; then whoami; else :; fi",
    "x|if true; then id; fi",
    "1)\nwhile [ -n x ]; do",
    "x&&trap 'uname -a' EXIT",
    "x;trap whoami 0",
    '"|trap "sleep 5" SIGINT',
    // History expansion after a separator, with a modifier, and quick substitution.
    "x;!!;",
    "x ; !!:p",
    "1)|!42'",
    "foo.pdf&&!$",
    "x\n!-1:$",
    "x;!ca:s/a/b/",
    "^x^whoami^",
    "x\n^ls^id^",
    // PowerShell cmdlets after a separator, or alone or with a parameter at the start.
    "x;Resolve-DnsName x.example",
    "foo.pdf&Get-LocalUser",
    "x|Get-Date",
    "Set-ExecutionPolicy Bypass",
    "Get-Process -Name x",
    "Invoke-Expression",
    "x;& Get-ChildItem",
  ])("refuses %s in every structured place", async (value) => {
    expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
  });

  it.each([
    // Prose with exclamation marks, and emoticons.
    "Great!!",
    "Wow !! that's cheap",
    "Yes; !!",
    "Plan A; !new",
    "!important",
    "^_^",
    "x^2^3",
    // Words that name a shell form in English and Spanish.
    "In case of emergency",
    "Case 12345; in progress",
    "If approved; then call me",
    "if [urgent]; then",
    "trap door",
    "Mouse trap 2",
    "Neuro eval; follow up",
    "eval 'initial'",
    "Exec office; suite 200",
    "! urgent",
    "Sleep clinic; sleep 8 hours",
    "Caso 123; en revisión",
    "¡Hola!; buenos días",
    // Insurance and office words written Verb-Noun.
    "Stop-Loss",
    "Add-On",
    "Open-Enrollment period",
    "Dental; Add-On coverage",
    "Out-Of-Pocket max",
    "Format-Date",
    "Publish-Date",
    "Copy-Item",
    "Set-Aside account",
    "Add-Dependent",
    "Test-Results; Lab-Work",
    "Start-Date 2027-01-01",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it("reads none of them in a note", async () => {
    for (const value of ["x;case a in a) id;; esac", "x;trap whoami 0", "x;!!;", "x;Resolve-DnsName x.example"])
      expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});

describe("round 11: older Windows readings that refused insurance words (decision 496)", () => {
  it.each([
    "Kaiser; Stop-Loss",
    "Aetna; stop-loss",
    "In-Patient; Out-Patient",
    "HMO; Out-Patient",
    "Command & Control",
    "Plan | Explorer",
    "Diabetes & Control",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it.each([
    // PowerShell's own cmdlets after a separator, in any case, and the programs in lower case.
    "x;get-process",
    "x; Get-ChildItem",
    "x;Write-Output 1",
    "x; out-file x",
    "x;test-path c:",
    "a | Stop-Process -Force",
    "& control",
    "|explorer",
    "x&calc",
  ])("still refuses %s in every structured place", async (value) => {
    expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
  });
});

describe("round 11: cmd.exe's caret before a space or a drive's colon (decision 497)", () => {
  it.each(["x|n^e^t^ ^u^s^e^r", "&d^i^r c^:^\\", "foo.pdf&&t^y^p^e^ ^c^:^\\^w^i^n^d^o^w^s^\\^w^i^n^.^i^n^i"])(
    "refuses %s in every structured place",
    async (value) => {
      expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
    },
  );

  it.each(["x^2 + y^2", "^_^", "2^10 = 1024", "Note ^ see above", "A^ B^ C", "Level 3^ (cubed)"])(
    "passes %s everywhere",
    async (value) => {
      expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
    },
  );
});
