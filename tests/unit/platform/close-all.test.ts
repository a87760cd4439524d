import { describe, expect, it } from "vitest";
import { closeAll, onShutdown } from "../../../app/server/platform/lifecycle.server";

describe("closeAll (decision 521)", () => {
  it("closes newest first, reports a failure and leaves behind a resource that never closes", async () => {
    const closed: string[] = [];
    onShutdown("oldest", () => {
      closed.push("oldest");
    });
    onShutdown("hangs", () => new Promise<void>(() => undefined));
    onShutdown("fails", () => Promise.reject(new Error("socket already gone")));
    onShutdown("newest", async () => {
      closed.push("newest");
    });
    const lines: string[] = [];
    const started = Date.now();
    await closeAll((msg, trouble) => lines.push(`${trouble ? "warn" : "info"}: ${msg}`), 200);
    // The hanging one cost its 200 ms and no more; the one before it still closed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(closed).toEqual(["newest", "oldest"]);
    expect(lines).toEqual([
      "info: closed newest",
      "warn: failed to close fails: socket already gone",
      "warn: did not close within 200 ms, left behind: hangs",
      "info: closed oldest",
    ]);
  });

  it("reports a closer that throws at once as failed, and empties the list", async () => {
    onShutdown("throws", () => {
      throw new Error("not open");
    });
    const lines: string[] = [];
    await closeAll((msg) => lines.push(msg), 200);
    expect(lines).toEqual(["failed to close throws: not open"]);
    const again: string[] = [];
    await closeAll((msg) => again.push(msg), 200);
    expect(again).toEqual([]);
  });
});
