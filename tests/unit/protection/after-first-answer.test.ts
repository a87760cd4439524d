import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { afterFirstAnswer } from "../../../server/after-first-answer";

/**
 * Decision 461 (issue 29): start-up work no answer waits for (the write store, the firewall's
 * warm-up, the parameter file's check) runs once the first answer is written, or soon after
 * listening when nobody asks, one task a turn, each failure reported.
 */
const open: http.Server[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function serve(handler: http.RequestListener): http.Server {
  const server = http.createServer(handler);
  open.push(server);
  return server;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("start-up work after the first answer", () => {
  it("waits for the first answer to be written, then runs each task once, in order", async () => {
    const done: string[] = [];
    let answer = () => {};
    let first = true;
    const server = serve((_req, res) => {
      if (!first) return void res.end("again");
      first = false;
      // The first answer is written later: nothing may run before it.
      answer = () => res.end(`answered after ${done.length} tasks`);
    });
    const finished = afterFirstAnswer(
      server,
      ["write store", "firewall warm-up", "checks"].map((name) => ({ name, run: () => void done.push(name) })),
      () => undefined,
      60_000,
    );
    const url = await listen(server);
    const response = fetch(`${url}/api/health`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toEqual([]);
    answer();
    expect(await (await response).text()).toBe("answered after 0 tasks");
    await finished;
    expect(done).toEqual(["write store", "firewall warm-up", "checks"]);
    // A second answer runs nothing again.
    await fetch(`${url}/api/health`).then((r) => r.text());
    expect(done).toEqual(["write store", "firewall warm-up", "checks"]);
  });

  it("runs the tasks soon after listening when no request comes", async () => {
    const done: string[] = [];
    const server = serve((_req, res) => res.end());
    const started = performance.now();
    const finished = afterFirstAnswer(
      server,
      [{ name: "write store", run: () => void done.push("write store") }],
      () => undefined,
      50,
    );
    await listen(server);
    await finished;
    expect(done).toEqual(["write store"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("waits for a task's promise, reports a failure and runs the rest", async () => {
    const done: string[] = [];
    const failures: Array<[string, string]> = [];
    const server = serve((_req, res) => res.end());
    const finished = afterFirstAnswer(
      server,
      [
        {
          name: "slow",
          run: () => new Promise<void>((resolve) => setTimeout(() => resolve(void done.push("slow")), 30)),
        },
        {
          name: "bad file",
          run: () => {
            throw new Error("the parameter files are not valid");
          },
        },
        { name: "rejected", run: () => Promise.reject(new Error("no store")) },
        { name: "last", run: () => void done.push("last") },
      ],
      (name, error) => failures.push([name, (error as Error).message]),
      10,
    );
    await listen(server);
    await finished;
    expect(done).toEqual(["slow", "last"]);
    expect(failures).toEqual([
      ["bad file", "the parameter files are not valid"],
      ["rejected", "no store"],
    ]);
  });

  it("does nothing once the server is closed before it starts", async () => {
    const done: string[] = [];
    const server = serve((_req, res) => res.end());
    const finished = afterFirstAnswer(
      server,
      [{ name: "write store", run: () => void done.push("x") }],
      () => undefined,
      60_000,
    );
    await listen(server);
    open.splice(open.indexOf(server), 1);
    await new Promise((resolve) => server.close(resolve));
    await finished;
    expect(done).toEqual([]);
  });
});
