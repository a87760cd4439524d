import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JsonStreamError, jsonArrayElementBatches, type JsonElement } from "../../../seed/readers/json-stream";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tmpFile(content: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "seed-json-"));
  dirs.push(dir);
  const file = path.join(dir, "x.json");
  writeFileSync(file, content);
  return file;
}

async function elements(file: string, chunkSize?: number): Promise<JsonElement[]> {
  const out: JsonElement[] = [];
  for await (const batch of jsonArrayElementBatches(file, { chunkSize })) out.push(...batch);
  return out;
}

describe("streaming JSON array reader", () => {
  const doc = `\uFEFF [
    {"npi": "1234567893", "name": {"first": "Ana ]}", "last": "O\\"Neil"}, "plans": [{"plan_id": "12345TX0010001"}]},
    {"npi": 1234567891, "facility_name": "[General] {Hospital}"},
    "a string element, with a comma",
    42,
    null
  ]\n`;

  it("yields each element, whatever brackets, quotes and escapes its strings hold", async () => {
    const els = await elements(tmpFile(doc));
    expect(els.map((e) => e.value)).toEqual([
      { npi: "1234567893", name: { first: "Ana ]}", last: 'O"Neil' }, plans: [{ plan_id: "12345TX0010001" }] },
      { npi: 1234567891, facility_name: "[General] {Hospital}" },
      "a string element, with a comma",
      42,
      null,
    ]);
  });

  it("gives the same elements with tiny chunks (elements, strings and escapes cut across chunks)", async () => {
    const file = tmpFile(doc);
    const whole = (await elements(file)).map((e) => e.value);
    for (const size of [1, 2, 5, 13]) expect((await elements(file, size)).map((e) => e.value)).toEqual(whole);
  });

  it("reports a malformed element and goes on with the next", async () => {
    const els = await elements(tmpFile('[{"a": 1}, {"b": PREFERRED}, {"c": 3}]'));
    expect(els).toEqual([
      { index: 0, value: { a: 1 } },
      { index: 1, error: "malformed JSON element" },
      { index: 2, value: { c: 3 } },
    ]);
  });

  it("reports a truncated file", async () => {
    const els = await elements(tmpFile('[{"a": 1}, {"b": 2'));
    expect(els[0].value).toEqual({ a: 1 });
    expect(els.at(-1)!.error).toMatch(/truncated/);
  });

  it("refuses a file that is not a JSON array", async () => {
    await expect(elements(tmpFile('{"plans": []}'))).rejects.toBeInstanceOf(JsonStreamError);
    await expect(elements(tmpFile(""))).rejects.toBeInstanceOf(JsonStreamError);
  });
});
