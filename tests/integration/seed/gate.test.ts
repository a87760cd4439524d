/**
 * The completeness gate on the fixture source directory: each condition
 * fails on its own, one line each; a refused store leaves the current one in
 * place; --allow-incomplete and --accept-shrink; the sample passes.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPlanStore } from "../../../seed/build-store";
import { StoreRefusedError } from "../../../seed/gate";
import { FIXTURE_SOURCE, REPO, copyFixtureSource, edit, removeTempDirs, tempDir } from "./fixture-store";

afterAll(() => removeTempDirs());

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

async function refusal(sourceDir: string, outPath: string, extra: object = {}): Promise<StoreRefusedError> {
  const error = await buildPlanStore({ sourceDir, outPath, ...extra }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreRefusedError);
  return error as StoreRefusedError;
}

describe("completeness gate", () => {
  it("passes the bundled sample and the fixture directory", async () => {
    const dir = tempDir();
    const sample = await buildPlanStore({ sourceDir: path.join(REPO, "seed/sample"), outPath: path.join(dir, "s.db") });
    expect(sample.complete).toBe(true);
    expect(sample.problems).toEqual([]);
    const fixture = await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: path.join(dir, "f.db") });
    expect(fixture.complete).toBe(true);
  });

  it("refuses plans without benefits or service area, and counties without names, one line per condition", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    const src = copyFixtureSource();
    rmSync(path.join(src, "benefits-and-cost-sharing-puf.csv"));
    rmSync(path.join(src, "national-county2020.txt"));
    // Drop the service-area rows of issuer 12345's TX area: its plans lose their service area.
    edit(path.join(src, "service-area-puf.csv"), (t) =>
      t
        .split("\n")
        .filter((line) => !/^2027,TX,12345,/.test(line))
        .join("\n"),
    );
    const error = await refusal(src, out);
    expect(error.problems.map((p) => p.condition)).toEqual(
      expect.arrayContaining(["benefits", "service-area", "county-names"]),
    );
    const benefits = error.problems.filter((p) => p.condition === "benefits");
    // One line per plan year × state: every loaded state lacks benefits.
    expect(benefits.map((p) => p.message.slice(0, 7))).toEqual([
      ...new Set(benefits.map((p) => p.message.slice(0, 7))),
    ]);
    expect(
      benefits.every((p) => /plans have no benefits \(no benefits-and-cost-sharing-puf\.csv/.test(p.message)),
    ).toBe(true);
    expect(error.problems.find((p) => p.condition === "service-area")!.message).toMatch(
      /^2027 TX: \d+ of \d+ plans have no service area/,
    );
    expect(error.message.split("\n").length).toBe(error.problems.length + 2);
    expect(readdirSync(path.dirname(out))).toEqual([]);
  });

  it("refuses a store with half the plans of the current one unless --accept-shrink", async () => {
    const dir = tempDir();
    const out = path.join(dir, "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const before = { sha: sha256(out), ino: statSync(out).ino };
    const src = copyFixtureSource();
    // Keep only the TX plans (and their variants) of Plan Attributes.
    edit(path.join(src, "plan-attributes-puf.csv"), (t) =>
      t
        .split("\n")
        .filter((line, i) => i === 0 || line.trim() === "" || /TX\d{7}-\d\d/.test(line))
        .join("\n"),
    );
    const error = await refusal(src, out);
    expect(error.problems.every((p) => p.condition === "shrink")).toBe(true);
    expect(error.problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^plans 2027 NE: 0 in the new store, \d+ in the current one \(below 80%\)$/),
      ]),
    );
    expect(error.hint).toMatch(/--accept-shrink/);
    expect(sha256(out)).toBe(before.sha);
    expect(statSync(out).ino).toBe(before.ino);

    const accepted = await buildPlanStore({ sourceDir: src, outPath: out, acceptShrink: true });
    expect(accepted.complete).toBe(true);
    expect(accepted.problems.every((p) => p.condition === "shrink")).toBe(true);
    expect(statSync(out).ino).not.toBe(before.ino);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.prepare("SELECT DISTINCT state FROM plans").all()).toEqual([{ state: "TX" }]);
    } finally {
      db.close();
    }
  });

  it("does not compare with a current store of sample data", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    await buildPlanStore({ sourceDir: path.join(REPO, "seed/sample"), outPath: out });
    const report = await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    expect(report.problems).toEqual([]);
  });

  it("--allow-incomplete swaps in a refused store, marked incomplete", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    const src = copyFixtureSource();
    rmSync(path.join(src, "rate-puf.csv"));
    await refusal(src, out);
    const report = await buildPlanStore({ sourceDir: src, outPath: out, allowIncomplete: true });
    expect(report.complete).toBe(false);
    // One line per state with plans (AK, NE, NY, TX).
    expect(report.problems.map((p) => p.message.slice(0, 7))).toEqual(["2027 AK", "2027 NE", "2027 NY", "2027 TX"]);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM store_meta WHERE key = 'complete'").get()).toEqual({ value: "0" });
    } finally {
      db.close();
    }
  });
});
