import { afterEach, describe, expect, it, vi } from "vitest";
import type * as Registry from "../../../../app/domain/parameters/registry";

/**
 * Decision 461 (issue 29): the ACA parameter file is validated on first use, not when its module is
 * loaded (the server build loads it at start), and server.ts asks for it through the build's
 * deferredStartupChecks once it has answered its first request: a bad file still stops the
 * process, and nothing is ever read from an unchecked file.
 */
const REGISTRY = "../../../../app/domain/parameters/registry";

async function withParameterSet(edit: (set: { blocks: Record<string, Record<string, unknown>> }) => void) {
  vi.resetModules();
  vi.doMock(REGISTRY, async (importOriginal) => {
    const real = await importOriginal<typeof Registry>();
    const copy = structuredClone(real.PARAMETER_SET) as unknown as { blocks: Record<string, Record<string, unknown>> };
    edit(copy);
    return { ...real, PARAMETER_SET: copy };
  });
  const file = await import("../../../../app/domain/parameters/parameter-file");
  const checks = await import("../../../../app/server/platform/deferred-checks.server");
  return { ...file, ...checks };
}

afterEach(() => {
  vi.doUnmock(REGISTRY);
  vi.resetModules();
});

describe("the parameter file checked after the first answer", () => {
  it("loads a bad file's module without validating it, and refuses it on first use and in the deferred check", async () => {
    const { parameter, deferredStartupChecks, ParameterFileError } = await withParameterSet(
      (set) => delete set.blocks.povertyGuidelines!.unit,
    );
    // Loading did not throw (the server could start and answer its health check); nothing is read unchecked.
    expect(() => parameter("povertyGuidelines", 2026)).toThrow(ParameterFileError);
    expect(() => deferredStartupChecks()).toThrow(/block "povertyGuidelines"/);
  });

  it("passes the repository's file, once: later readers use the checked copy", async () => {
    const { acaParameterFile, deferredStartupChecks, parameter } = await withParameterSet(() => undefined);
    expect(() => deferredStartupChecks()).not.toThrow();
    expect(acaParameterFile()).toBe(acaParameterFile());
    expect(Object.isFrozen(acaParameterFile().blocks)).toBe(true);
    expect(parameter("povertyGuidelines", 2026)).toBeDefined();
  });
});
