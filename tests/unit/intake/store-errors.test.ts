import { describe, expect, it } from "vitest";
import { DrizzleQueryError } from "drizzle-orm/errors";
import {
  describeStoreError,
  isConnectionFailure,
  isTransientFailure,
  loggableError,
} from "../../../db/write-store-errors";
import { restartDelayMs } from "../../../server/cluster";

/** Issue 30 items 1-3 (docs/decisions/370-372): what a store failure may say in a log, and what it means. */

function pgError(code: string, message: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), { code, severity: "ERROR", ...extra });
}

const params = ["pat.doe@example.com", "Pat Doe", "6465550123"];

describe("describeStoreError", () => {
  it("never carries a failed query's parameters", () => {
    const cause = pgError("23505", 'duplicate key value violates unique constraint "x"', {
      constraint: "waitlist_email_key_interest",
      table: "waitlist_submissions",
      detail: "Key (email_key)=(pat.doe@example.com) already exists.",
    });
    const wrapped = new DrizzleQueryError("insert into waitlist_submissions values ($1, $2, $3)", params, cause);
    expect(wrapped.message).toContain("pat.doe@example.com");
    const described = JSON.stringify(describeStoreError(wrapped));
    for (const value of params) expect(described).not.toContain(value);
    expect(describeStoreError(wrapped)).toEqual({
      err: "PostgreSQL ERROR 23505 (waitlist_email_key_interest, waitlist_submissions)",
      code: "23505",
    });
    for (const value of params) expect(loggableError(wrapped)).not.toContain(value);
  });

  it("keeps a connection failure's own words, and scrubs addresses and phone numbers from anything else", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(describeStoreError(new DrizzleQueryError("select 1", params, refused))).toEqual({
      err: "connect ECONNREFUSED 127.0.0.1:5432",
      code: "ECONNREFUSED",
    });
    const odd = new Error("could not mail pat.doe@example.com at 646-555-0123");
    expect(describeStoreError(odd).err).toBe("Error: could not mail [address] at [digits]");
    expect(loggableError(odd)).not.toMatch(/pat\.doe|555-0123/);
  });
});

describe("which failures mean the engine is away", () => {
  it("tells connection failures from data errors", () => {
    expect(isConnectionFailure(pgError("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isConnectionFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(true);
    expect(isConnectionFailure(new DrizzleQueryError("q", [], pgError("08006", "connection failure")))).toBe(true);
    expect(isConnectionFailure(pgError("23505", "duplicate key"))).toBe(false);
    expect(isTransientFailure(pgError("40P01", "deadlock detected"))).toBe(true);
    expect(isTransientFailure(pgError("23505", "duplicate key"))).toBe(false);
  });
});

describe("worker restart delay (decision 371)", () => {
  it("restarts at once while deaths are rare, then doubles up to 30 s, never stopping", () => {
    // Two workers: up to 4 deaths a minute are restarted after 100 ms.
    expect([1, 2, 3, 4].map((n) => restartDelayMs(n, 2))).toEqual([100, 100, 100, 100]);
    // 5th, 6th, 7th … death within the minute: 1 s, 2 s, 4 s … at most 30 s.
    expect([5, 6, 7, 8, 9, 10].map((n) => restartDelayMs(n, 2))).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
    expect(restartDelayMs(500, 2)).toBe(30000);
  });
});
