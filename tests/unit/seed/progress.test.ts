/** The seed's progress display: per file percentage and rows per second on a terminal, plain lines elsewhere. */
import { describe, expect, it } from "vitest";
import type { BuildProgress } from "../../../seed/build-store";
import { progressPrinter } from "../../../seed/progress";

function run(tty: boolean, events: Array<[number, BuildProgress]>): string {
  let out = "";
  let clock = 0;
  const print = progressPrinter({ isTTY: tty, write: (t) => (out += t) }, () => clock);
  for (const [at, p] of events) {
    clock = at;
    print(p);
  }
  return out;
}

const read = (file: string, bytesRead: number, rowsRead: number, overall: number): BuildProgress => ({
  phase: "read",
  file,
  bytesRead,
  totalBytes: 1000,
  rowsRead,
  overallBytesRead: overall,
  overallTotalBytes: 2000,
});

const events: Array<[number, BuildProgress]> = [
  [0, read("rate-puf.csv", 100, 1000, 100)],
  [2000, read("rate-puf.csv", 400, 40_000, 400)],
  [6000, read("rate-puf.csv", 700, 120_000, 700)],
  [8000, read("rate-puf.csv", 1000, 160_000, 1000)],
  [8000, read("benefits-and-cost-sharing-puf.csv", 500, 10, 1500)],
  [9000, { phase: "index", index: "rates_plan_area", done: 0, total: 2 }],
  [9500, { phase: "finish", message: "syncing and swapping in the new store" }],
];

describe("seed progress display", () => {
  it("on a terminal: one line rewritten in place with the file's % and rows per second", () => {
    const out = run(true, events);
    // 40,000 rows in 2 s = 20,000 rows/s; 40% of the file, 20% of the load.
    expect(out).toContain("\r\x1b[K[ 20%] rate-puf.csv:  40% of 1 KB, 40,000 rows, 20,000 rows/s");
    expect(out).toContain("[ 50%] rate-puf.csv: 100% of 1 KB, 160,000 rows, 20,000 rows/s");
    expect(out.endsWith("syncing and swapping in the new store\n")).toBe(true);
  });

  it("in CI: plain lines, a file's start, a line every 5 s, its end with rows per second", () => {
    const out = run(false, events);
    expect(out.includes("\r") || out.includes("\x1b")).toBe(false);
    expect(out.split("\n")).toEqual([
      "[  5%] rate-puf.csv: reading 1 KB",
      "[ 35%] rate-puf.csv: 70%, 120,000 rows, 20,000 rows/s",
      "[ 50%] rate-puf.csv: done, 160,000 rows in 8.0 s (20,000 rows/s)",
      "[ 75%] benefits-and-cost-sharing-puf.csv: reading 1 KB",
      "indexing rates_plan_area (1/2)",
      "syncing and swapping in the new store",
      "",
    ]);
  });
});
