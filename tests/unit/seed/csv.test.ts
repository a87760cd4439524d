import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HeaderMap, MAX_RECORD_CHARS, csvRecords, sniffDelimiter, sniffEncoding } from "../../../seed/readers/csv";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tmpFile(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "seed-csv-"));
  dirs.push(dir);
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

async function all(file: string, chunkSize?: number, delimiter = ",") {
  const out = [];
  for await (const r of csvRecords(file, { chunkSize, delimiter })) out.push(r);
  return out;
}

describe("streaming CSV reader", () => {
  const text =
    "\uFEFFBusinessYear,PlanId,Explanation\r\n" +
    '2027,12345TX0010001-01,"Copay waived if admitted,\r\nsee ""SBC"" for details"\r\n' +
    "2027,12345TX0010001-04,plain\r\n" +
    "\r\n" +
    '2027,12345TX0010001-05,""\r\n' +
    "2027,12345TX0010001-06,last line without newline";

  it("strips the BOM, handles CRLF, quoted delimiters, doubled quotes and line breaks in quotes", async () => {
    const records = await all(tmpFile("a.csv", text));
    expect(records.map((r) => r.fields)).toEqual([
      ["BusinessYear", "PlanId", "Explanation"],
      ["2027", "12345TX0010001-01", 'Copay waived if admitted,\r\nsee "SBC" for details'],
      ["2027", "12345TX0010001-04", "plain"],
      ["2027", "12345TX0010001-05", ""],
      ["2027", "12345TX0010001-06", "last line without newline"],
    ]);
    // Line numbers are physical lines: the quoted field spans lines 2-3, the blank line 5 is skipped.
    expect(records.map((r) => r.line)).toEqual([1, 2, 4, 6, 7]);
  });

  it("gives the same records whatever the chunk size (records and quotes cut across chunks)", async () => {
    const file = tmpFile("b.csv", text);
    const whole = await all(file);
    for (const chunk of [1, 2, 3, 7, 16]) {
      expect((await all(file, chunk)).map((r) => r.fields)).toEqual(whole.map((r) => r.fields));
    }
  });

  it("reports an unterminated quote at the end of the file as malformed", async () => {
    const records = await all(tmpFile("c.csv", 'a,b\n1,"never closed\n2,3\n'));
    expect(records[1].malformed).toBe("unterminated quoted field");
    expect(records[1].line).toBe(2);
  });

  it("recovers from a runaway quote instead of buffering the rest of the file", async () => {
    const filler = Array.from({ length: 30_000 }, (_, i) => `${i},${"x".repeat(40)}`).join("\n");
    expect(filler.length).toBeGreaterThan(MAX_RECORD_CHARS);
    const records = await all(tmpFile("d.csv", `a,b\n1,"oops\n${filler}\n`), 64 * 1024);
    expect(records[1]).toMatchObject({ line: 2, malformed: "unterminated quoted field" });
    // Reading resumed on the following lines.
    expect(records.length).toBeGreaterThan(20_000);
    expect(records.at(-1)!.fields).toEqual(["29999", "x".repeat(40)]);
  });

  it("reads pipe-delimited files and detects the delimiter from the header", async () => {
    const file = tmpFile("e.txt", "STATE|STATEFP|COUNTYFP|COUNTYNAME\nTX|48|113|Dallas County\n");
    expect(sniffDelimiter(file)).toBe("|");
    expect((await all(file, undefined, "|"))[1].fields).toEqual(["TX", "48", "113", "Dallas County"]);
    expect(sniffDelimiter(tmpFile("f.csv", "a,b,c\n"))).toBe(",");
  });

  it("falls back to Latin-1 for files that are not UTF-8 (older PUFs)", async () => {
    const file = tmpFile(
      "g.csv",
      Buffer.concat([Buffer.from("name\n"), Buffer.from([0x53, 0x61, 0x6c, 0x75, 0x64, 0xe9]), Buffer.from("\n")]),
    );
    expect(sniffEncoding(file)).toBe("latin1");
    expect((await all(file))[1].fields).toEqual(["Salud\u00e9"]);
    expect(sniffEncoding(tmpFile("h.csv", "name\nPlains Gold ℠\n"))).toBe("utf8");
  });

  it("matches headers by name, case-insensitively and ignoring spaces and underscores", () => {
    const h = new HeaderMap(["\uFEFFbusinessyear", "Plan Type", "TOT_RATIO", "planid"]);
    expect(h.find("BusinessYear")).toBe(0);
    expect(h.find("PlanType")).toBe(1);
    expect(h.find("tot_ratio")).toBe(2);
    expect(h.find("PlanID", "PlanId")).toBe(3);
    expect(h.find("StandardComponentId")).toBe(-1);
  });
});
