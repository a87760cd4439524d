import { beforeAll, describe, expect, it } from "vitest";
import { decodedView } from "../../../server/firewall/decode";
import { FirewallEngine } from "../../../server/firewall/engine";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  locationsBlocking,
  structuredPlacesFor,
} from "../../fixtures/firewall/measure";

/**
 * Round 12 of issue 30 item 4 (docs/firewall.md, "Round 12"; decision 501): cmd.exe's argument
 * delimiters and its runners, from the Windows Commands reference (the cmd, call and start pages).
 * cmd splits a command's arguments on commas and semicolons as on spaces, so "|net,user" runs
 * "net user"; `call` and `start` run the program after them. Every string here was written for
 * this test.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("round 12: cmd.exe's commas and semicolons between a command and its arguments", () => {
  it.each([
    "x|net,user",
    "foo.pdf&&net,localgroup,administrators",
    "75201&net;view",
    "x\nwhoami,/priv",
    "1|tasklist,/v",
    "x&ipconfig,/all",
    "foo.pdf||ping,-n,5,127.0.0.1",
    "x;whoami,/all",
    "x%7Cnet%2Cuser",
  ])("refuses %s in every structured place", async (value) => {
    expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
  });

  it("reads the delimiter as a space in the decoded view, and only after a separator or at the start", () => {
    expect(decodedView("x|net,user")).toBe("x|net user");
    expect(decodedView("whoami,/priv")).toBe("whoami /priv");
    expect(decodedView("x&net;view")).toBe("x&net view");
    // A POSIX shell's ";" ends the command, and is no delimiter after one: the separator stays.
    expect(decodedView("foo.pdf;whoami,/priv")).toBe("foo.pdf;whoami /priv");
    // A comma with a space after it is prose's, and "=" is a query string's.
    expect(decodedView("Gold & net, after credits")).toBeUndefined();
    expect(decodedView("https://x.example/?a=1&id=5") ?? "").not.toContain("id 5");
  });

  it.each([
    "Johnson & Johnson,Inc",
    "AT&T,Verizon",
    "gross & net, after credits",
    "premium & net,after subsidy",
    "Plan A|Plan B,Plan C",
    "metformin|lisinopril,atorvastatin",
    "type,1 diabetes",
    "echo,cardiogram",
    "Kenai,Soldotna",
    "Nome,Bethel;Kotzebue",
    "10001|10002,10003",
    "Bronze & Silver;Gold",
    "start,stop",
    "call;text",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });
});

describe("round 12: cmd.exe's call and start run the program after them", () => {
  it.each(["call whoami", "start /b whoami", "start /min /wait ipconfig", "x&call netstat", "x|start /b tasklist"])(
    "refuses %s in every structured place",
    async (value) => {
      expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
    },
  );

  it.each([
    "call cigna",
    "call my agent",
    "call 907-555-0100",
    "start enrollment",
    "start date",
    "start metformin",
    "start /finish dates",
    "call back, please",
    "Start Jan 1,2027",
  ])("passes %s everywhere", async (value) => {
    expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
  });
});

describe("round 12: a program run from a home directory after a separator", () => {
  it.each(["x;~/x.sh", "foo.pdf|~root/run", "75201&&~/bin/backdoor"])(
    "refuses %s in every structured place",
    async (value) => {
      expect(await locationsBlocking(engine, value, structuredPlacesFor(value))).toEqual(structuredPlacesFor(value));
    },
  );

  // "$0" is money before it is a shell's name: "$0 -c id" at the start is left alone.
  it.each(["a|~b", "Gold ~/month", "about ~5/month; ~10/year", "$0 copay", "$0 -c copay"])(
    "passes %s everywhere",
    async (value) => {
      expect(await locationsBlocking(engine, value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
    },
  );
});
