import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { startRedis, type RunningRedis } from "../../helpers/engines";

/**
 * A Redis that hangs with its connection open (SIGSTOP: a frozen host or a partition looks the
 * same), docs/decisions/492. Every command then waits its 500 ms timeout; before the stall guard
 * every request waited with it, for as long as Redis hung (measured: 510-580 ms each). Now one
 * command gives up, Redis counts as stalled, requests use this process's counts without waiting,
 * /api/health says so, and a PING ends the stall once Redis answers.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const COMMAND_TIMEOUT_MS = 500;

let redis: RunningRedis;
let server: RunningServer | undefined;

beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ env: { REDIS_URL: redis.url }, timeoutMs: 40_000 });
}, 60_000);

afterAll(async () => {
  redis?.thaw();
  await server?.stop().catch(() => undefined);
  await redis?.stop();
});

async function redisState(): Promise<string> {
  const res = await fetch(`${server!.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sharedState: { redis: string } }).sharedState.redis;
}

async function county(): Promise<number> {
  const started = Date.now();
  const res = await fetch(`${server!.url}/api/counties?zip=10001`, { signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  return Date.now() - started;
}

describe("a Redis that hangs", () => {
  it("costs one command timeout, not one per request, and is used again once it answers", async () => {
    await county();
    expect(await redisState()).toBe("ok");

    redis.freeze();
    // The first request's rate-rule command waits its timeout and falls back.
    await county();
    expect(await redisState()).toBe("unavailable");
    // Then nothing waits on Redis: of ten requests in a row, hardly any takes a command timeout
    // (without the stall guard every one did; a loaded machine may slow one or two).
    const times: number[] = [];
    for (let i = 0; i < 10; i++) times.push(await county());
    console.log(
      `hung Redis: ten requests took ${times.join(", ")} ms (one command timeout is ${COMMAND_TIMEOUT_MS} ms)`,
    );
    expect(times.filter((ms) => ms >= COMMAND_TIMEOUT_MS).length).toBeLessThan(3);

    redis.thaw();
    let state = "unavailable";
    for (let i = 0; i < 50 && state !== "ok"; i++) {
      await sleep(100);
      state = await redisState();
    }
    expect(state).toBe("ok");
    expect(server!.output()).toContain("Redis answers again");
  }, 60_000);
});
