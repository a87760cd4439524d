import { describe, expect, it } from "vitest";
import { parseCsv, parseCsvRecords } from "../../../mocks/cms-api/csv";

describe("the fake upstream's CSV reader", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks", () => {
    const text = 'a,b,c\n"1,5","say ""hi""","two\nlines"\n';
    expect(parseCsvRecords(text)).toEqual([
      ["a", "b", "c"],
      ["1,5", 'say "hi"', "two\nlines"],
    ]);
  });

  it("drops a UTF-8 byte-order mark, accepts CRLF and matches headers case-insensitively", () => {
    const text = "\uFEFFZIP,County\r\n75001,48113\r\n";
    expect(parseCsv(text)).toEqual([{ zip: "75001", county: "48113" }]);
  });

  it("reads pipe-delimited files and keeps empty trailing fields", () => {
    const text = "STATE|STATEFP|COUNTYFP|NAME|\nTX|48|113|Dallas County|\n";
    expect(parseCsv(text, "|")).toEqual([
      { state: "TX", statefp: "48", countyfp: "113", name: "Dallas County", "": "" },
    ]);
  });

  it("reads a last line without a newline", () => {
    expect(parseCsvRecords("a,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });
});
