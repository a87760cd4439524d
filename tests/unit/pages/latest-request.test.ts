import { describe, expect, it } from "vitest";
import { LatestRequest } from "../../../app/components/plans/latest-request";

/** A request whose answer the test releases by hand (and which ignores abort, like a response already in flight). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("LatestRequest: only the newest autocomplete answer is shown", () => {
  it("drops an older answer that arrives after a newer one", async () => {
    const requests = new LatestRequest<string[]>();
    const shown: string[][] = [];
    const lip = deferred<string[]>();
    const lipi = deferred<string[]>();
    requests.run(
      () => lip.promise,
      (a) => shown.push(a),
    );
    requests.run(
      () => lipi.promise,
      (a) => shown.push(a),
    );
    lipi.resolve(["Lipitor 20 mg"]);
    await settle();
    lip.resolve(["stale: lip"]);
    await settle();
    expect(shown).toEqual([["Lipitor 20 mg"]]);
  });

  it("drops an older answer that arrives first, too", async () => {
    const requests = new LatestRequest<string>();
    const shown: string[] = [];
    const first = deferred<string>();
    const second = deferred<string>();
    requests.run(
      () => first.promise,
      (a) => shown.push(a),
    );
    requests.run(
      () => second.promise,
      (a) => shown.push(a),
    );
    first.resolve("old");
    await settle();
    expect(shown).toEqual([]);
    second.resolve("new");
    await settle();
    expect(shown).toEqual(["new"]);
  });

  it("aborts the request it replaces, and reports errors of the newest request only", async () => {
    const requests = new LatestRequest<string>();
    const signals: AbortSignal[] = [];
    const errors: unknown[] = [];
    const a = deferred<string>();
    const b = deferred<string>();
    requests.run(
      (signal) => (signals.push(signal), a.promise),
      () => {},
      (e) => errors.push(e),
    );
    requests.run(
      (signal) => (signals.push(signal), b.promise),
      () => {},
      (e) => errors.push(e),
    );
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    a.reject(new Error("aborted"));
    b.reject(new Error("503"));
    await settle();
    expect(errors).toEqual([new Error("503")]);
  });

  it("shows nothing after cancel (the text became shorter than three letters)", async () => {
    const requests = new LatestRequest<string>();
    const shown: string[] = [];
    const a = deferred<string>();
    requests.run(
      () => a.promise,
      (x) => shown.push(x),
    );
    requests.cancel();
    a.resolve("late");
    await settle();
    expect(shown).toEqual([]);
  });
});
