import { describe, expect, it } from "vitest";
import { MAX_JSON_NESTING, nestsDeeperThan } from "../../../app/server/platform/json-nesting";

/** Decision 500: a JSON body's nesting is measured before it is parsed. */
describe("nestsDeeperThan", () => {
  const nest = (levels: number, open = "[", close = "]") => open.repeat(levels) + close.repeat(levels);

  it("counts arrays and objects together, and allows exactly the limit", () => {
    expect(MAX_JSON_NESTING).toBe(64);
    expect(nestsDeeperThan(nest(64))).toBe(false);
    expect(nestsDeeperThan(nest(65))).toBe(true);
    expect(nestsDeeperThan('{"a":'.repeat(65) + "1" + "}".repeat(65))).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
  });

  it("measures depth, not the number of containers", () => {
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 10_000 }, () => [1])))).toBe(false);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(nestsDeeperThan(JSON.stringify({ note: "[".repeat(1_000) }))).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ note: `say \\"${"{".repeat(100)}\\"` }))).toBe(false);
    // After an escaped backslash the quote closes the string: the brackets after it count.
    expect(nestsDeeperThan(`["a\\\\", ${nest(64)}]`)).toBe(true);
  });
});
