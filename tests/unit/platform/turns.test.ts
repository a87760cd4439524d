import { describe, expect, it } from "vitest";
import { turnQueue } from "../../../app/server/platform/turns.server";

/** Hold the event loop for `ms` milliseconds, as a step of real work does. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Decision 499: one waiting step resumes per turn of the event loop, in the order they asked. */
describe("turnQueue", () => {
  it("resumes waiting steps one per turn, first come first served, with the loop's other phases between them", async () => {
    const queue = turnQueue();
    const order: string[] = [];
    let timerSet = false;
    await Promise.all(
      [1, 2, 3, 4].map(async (n) => {
        await queue.next();
        order.push(`step ${n}`);
        if (!timerSet) {
          timerSet = true;
          // Due once a millisecond has passed: the next turn's timers phase runs it, before the next step.
          setTimeout(() => order.push("timer"), 0);
        }
        work(2);
      }),
    );
    expect(order).toEqual(["step 1", "timer", "step 2", "step 3", "step 4"]);
  });

  it("costs one turn when no one else waits, and can be used again after it empties", async () => {
    const queue = turnQueue();
    const order: string[] = [];
    setImmediate(() => order.push("immediate queued before"));
    await queue.next();
    order.push("step");
    await queue.next();
    order.push("step again");
    expect(order).toEqual(["immediate queued before", "step", "step again"]);
  });
});
