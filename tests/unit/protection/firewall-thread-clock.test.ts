import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { threadCpuMicros } from "../../../server/firewall/engine";

/**
 * Decision 500: the engine's overrun retries measure the calling thread's CPU, so another thread's
 * work (the off-loop inspector building its rules) cannot make a retry look costly and turn a
 * request into a 503.
 */
describe("threadCpuMicros", () => {
  it("counts this thread's CPU and not another thread's", async () => {
    const mine = threadCpuMicros();
    const process0 = process.cpuUsage();
    // A second thread spins until it has used 200 ms of its own CPU, while this one waits idle.
    await new Promise<void>((resolve, reject) => {
      const worker = new Worker(
        `const { readFileSync } = require("node:fs");
         const cpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
         const start = cpu();
         while (cpu() - start < 200);
         require("node:worker_threads").parentPort.postMessage("done");`,
        { eval: true },
      );
      worker.once("message", () => void worker.terminate().then(() => resolve()));
      worker.once("error", reject);
    });
    const processUsed = process.cpuUsage(process0);
    const threadUsed = threadCpuMicros() - mine;
    expect(processUsed.user + processUsed.system).toBeGreaterThan(200_000);
    expect(threadUsed).toBeLessThan(100_000);
  });

  it("counts this thread's own work", () => {
    const before = threadCpuMicros();
    // Until the process has used 60 ms of CPU, nearly all of it this thread's spinning.
    const process0 = process.cpuUsage();
    for (let used = process.cpuUsage(process0); used.user + used.system < 60_000; used = process.cpuUsage(process0));
    // Brought up to date at the scheduler's ticks: it may read a tick low, never high.
    expect(threadCpuMicros() - before).toBeGreaterThan(30_000);
  });
});
