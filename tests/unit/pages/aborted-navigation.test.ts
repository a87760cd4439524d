import { describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/plans._index";
import { ignoreAbortedNavigation } from "../../../app/lib/aborted-navigation";

/**
 * A navigation a newer one aborted is not an error of the page (journey-ux saw it as one): the
 * results page's clientLoader settles quietly once aborted, and the page's handler marks an
 * aborted request's unhandled rejection as handled, and nothing else.
 */
const abortError = () => new DOMException("signal is aborted without reason", "AbortError");

function rejection(reason: unknown) {
  const event = { reason, prevented: false, preventDefault: () => (event.prevented = true) };
  return event;
}

describe("an aborted navigation", () => {
  it("an AbortError's unhandled rejection is marked handled; any other stays an error", () => {
    const aborted = rejection(abortError());
    ignoreAbortedNavigation(aborted);
    expect(aborted.prevented).toBe(true);
    for (const reason of [new Error("boom"), new DOMException("x", "NotFoundError"), "AbortError", undefined]) {
      const other = rejection(reason);
      ignoreAbortedNavigation(other);
      expect(other.prevented, String(reason)).toBe(false);
    }
  });

  it("the results page's clientLoader settles with nothing once aborted, and rethrows otherwise", async () => {
    const url = "http://localhost/plans?zip=75201";
    const controller = new AbortController();
    controller.abort();
    const failing = () => Promise.reject(abortError());
    const args = (signal: AbortSignal, serverLoader: () => Promise<unknown>) =>
      ({ request: new Request(url, { signal }), params: {}, serverLoader }) as unknown as Parameters<
        typeof plansRoute.clientLoader
      >[0];
    await expect(plansRoute.clientLoader(args(controller.signal, failing))).resolves.toBeNull();
    const live = new AbortController();
    await expect(plansRoute.clientLoader(args(live.signal, failing))).rejects.toThrow(/aborted/);
    const page = { step: "household" };
    await expect(plansRoute.clientLoader(args(live.signal, () => Promise.resolve(page)))).resolves.toBe(page);
  });
});
