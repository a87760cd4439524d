import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { internalHost, internalTargets } from "../../../server/firewall/ssrf";
import { userDocumentName } from "../../../server/firewall/user-paths";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking, type AnyLocation } from "../../fixtures/firewall/measure";

/**
 * Issue 30 item 4, round 4 (docs/decisions/433-434): readings written from known evasion
 * techniques, each with an example written here (no corpus string copied); the ordinary inputs
 * written for the round (benign-round4.json) passing in every place, users' own document paths
 * among them, while system paths stay refused.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

const blockedIn = (value: string, locations: readonly AnyLocation[]) => locationsBlocking(engine, value, locations);

const SHAPES: Record<string, string[]> = {
  "SSRF: parser confusion, wrapped octets, Unicode digits, names spelling an address": [
    "http://1.1.1.1 &@127.0.0.1# @3.3.3.3/",
    "http://foo@127.0.0.1:80@example.com/",
    "http://425.510.425.510/",
    "http://١٢٧.٠.٠.١/",
    "http://7f000001.c0a80001.rbndr.us/",
    "http://make-127-0-0-1-rr.1u.ms/",
    "http://10.0.0.1.example.net/",
    "http://app-192-168-0-1.rebind.example/",
    "http://a.localh.st/",
    "[::1]:6379",
    "127.1:11211",
    "http://example.com%2F@127.0.0.1",
    "http://example.com\\@10.0.0.1",
    "http://168.63.129.16/metadata",
    "http://metadata.azure.com/",
    "unix:/var/run/docker.sock",
  ],
  "SQL: glued keywords, identifiers, <=>, stacked SELECT, ORDER BY n DESC, %a0": [
    "1.e(union select 1)",
    "1e0union select 1",
    "\\Nunion select 1",
    "1'.e(1)",
    "select[id]from[users]",
    "select [name] from [sys].[tables]",
    "SELECT 0x61646d696e",
    "1 <=> 1",
    "1;select 1",
    "1 order by 1 desc",
    "1%a0or%a01=1",
    "'-'",
    "'&'",
    "1' and regexp_like(user,'^a')-- ",
    "1 and (select case when (1=1) then 1 else 1/0 end)=1",
  ],
  "command injection: Windows programs after &, capitals, waitfor, sleep after a break, $0": [
    "& calc",
    "& notepad",
    "& waitfor /t 5 x",
    "& SET",
    "a\nsleep 9",
    "; $0 -c id",
    "; sleep 0x5",
    "${@}id",
    "; ls ..",
  ],
  "Windows words (cmd, vol, net user …): after a typed separator, or at the start with .exe or a /switch": [
    "cmd /c whoami",
    "'cmd /k dir",
    "cmd.exe",
    "&cmd",
    "|vol",
    ";net user",
    "net user admin P@ss /add",
    "sc query /?",
  ],
};

describe("round 4 shapes", () => {
  for (const [shape, examples] of Object.entries(SHAPES))
    it(`refuses ${shape} in every structured place`, async () => {
      for (const value of examples) {
        const tested = LOCATIONS.filter((l) => l !== "header" || !/[\r\n]/.test(value));
        expect(await blockedIn(value, tested), value).toEqual(tested);
      }
    });

  it("canonicalises more spellings of an internal host", () => {
    expect(internalHost("425.510.425.510")).toBe("169.254.169.254");
    expect(internalHost("١٢٧.٠.٠.١")).toBe("127.0.0.1");
    expect(internalHost("10.0.0.1.example.net")).toBe("10.0.0.1");
    expect(internalHost("ip-10-0-0-1.example.com")).toBe("10.0.0.1");
    expect(internalHost("7f000001.c0a80001.rbndr.us")).toBe("127.0.0.1");
    expect(internalHost("localhost-clinic.org")).toBeUndefined();
    expect(internalHost("8.8.8.8.example.net")).toBeUndefined();
    expect(internalHost("300.300.300.300")).toBeUndefined();
    expect(internalTargets("http://a@b@127.0.0.1/")).toEqual(["//127.0.0.1/"]);
    expect(internalTargets("http://127.0.0.1 x@example.com/")).toEqual(["//127.0.0.1/"]);
    expect(internalTargets("https://www.anthem.com/#@plans")).toEqual([]);
  });
});

describe("a user's own document path (svc-lfi-005 no longer reads its folders)", () => {
  it("reads only the file name of a path into a user's own folders", () => {
    expect(userDocumentName("/home/ana/card.png")).toBe("card.png");
    expect(userDocumentName("C:\\Users\\Ana\\Documents\\card.pdf")).toBe("card.pdf");
    expect(userDocumentName("/Users/bob/Desktop/x y.HEIC")).toBe("x y.HEIC");
    for (const value of [
      "/home/x/.ssh/id_rsa",
      "/home/x/.ssh/id_rsa.txt",
      "/home/x/../../etc/passwd.txt",
      "/home/x/secret/key.txt",
      "/home/x/notes.conf",
      "/home/;id;/x.pdf",
      "C:\\Users\\x\\AppData\\x.txt",
      "/etc/x.pdf",
    ])
      expect(userDocumentName(value), value).toBeUndefined();
  });

  it("still refuses system paths, dot folders and dot-dot in every structured place", async () => {
    for (const value of [
      "/home/x/.ssh/id_rsa",
      "/home/x/.aws/credentials",
      "/home/x/../../etc/passwd",
      "/home/x/Documents/../../../etc/shadow.txt",
      "C:\\Users\\x\\..\\..\\Windows\\win.ini",
      "C:\\Windows\\win.ini",
      "/etc/passwd",
      "/proc/self/environ",
      "/home/x/Desktop/$(id).pdf",
      "/home/x/Desktop/' or 1=1-- .pdf",
    ])
      expect(await blockedIn(value, LOCATIONS), value).toEqual([...LOCATIONS]);
  });
});

describe("round 4 ordinary inputs (benign-round4.json, written for the round)", () => {
  const groups = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../../fixtures/firewall/benign-round4.json"), "utf8"),
  ) as Record<string, string[] | string>;

  it("passes every search, URL and user's document path in every place", async () => {
    const values = [
      ...(groups.round4_searches as string[]),
      ...(groups.round4_urls as string[]),
      ...(groups.round4_user_paths as string[]),
    ];
    expect(values.length).toBeGreaterThan(100);
    for (const value of values)
      expect(await blockedIn(value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS]), value).toEqual([]);
  });
});
