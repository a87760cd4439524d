import { describe, expect, it } from "vitest";
import { uploadBudget } from "../../../server/firewall/upload-budget";

const MB = 1024 * 1024;

describe("uploadBudget (decision 518)", () => {
  it("holds bodies by declared size up to the limit and refuses the one that does not fit", () => {
    const budget = uploadBudget(24 * MB);
    const a = budget.reserve(10 * MB);
    const b = budget.reserve(10 * MB);
    expect(a && b).toBeTruthy();
    // 20 MB held: 9 MB more would make 29 > 24; 4 MB makes exactly 24 and fits.
    expect(budget.reserve(9 * MB)).toBeUndefined();
    const c = budget.reserve(4 * MB);
    expect(c).toBeTruthy();
    expect(budget.stats).toEqual({ heldBytes: 24 * MB, held: 3, refused: 1, limitBytes: 24 * MB });
    a!.release();
    expect(budget.reserve(9 * MB)).toBeTruthy();
    expect(budget.stats.heldBytes).toBe(23 * MB);
  });

  it("gives a body back once, however often its answer reports closing", () => {
    const budget = uploadBudget(10 * MB);
    const a = budget.reserve(6 * MB)!;
    a.release();
    a.release();
    expect(budget.stats).toMatchObject({ heldBytes: 0, held: 0 });
    expect(budget.reserve(6 * MB)).toBeTruthy();
    expect(budget.reserve(6 * MB)).toBeUndefined();
  });

  it("always takes one body when nothing is held, even one larger than the whole budget", () => {
    const budget = uploadBudget(4 * MB);
    const big = budget.reserve(10 * MB);
    expect(big).toBeTruthy();
    expect(budget.reserve(1)).toBeUndefined();
    big!.release();
    expect(budget.reserve(1)).toBeTruthy();
  });
});
