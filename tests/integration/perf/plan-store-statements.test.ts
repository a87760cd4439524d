import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import * as schema from "../../../db/plan-store";
import { prepareQueries } from "../../../app/server/plan-store/queries.server";
import { PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { TEST_PLAN_STORE } from "../../helpers/server";

/**
 * Decision 461 (issue 29): a store handle prepares each statement when it is first used, not all
 * of them when the store is opened (the first health check after a start opened it and paid for
 * ~30 statements). A statement is prepared once and kept; the answers are the same.
 */
const sqlite = new Database(TEST_PLAN_STORE, { readonly: true, fileMustExist: true });
afterAll(() => sqlite.close());

describe("plan-store statements prepared on first use", () => {
  it("prepares nothing until a statement is read, then keeps the one it prepared", () => {
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    const counting = new Proxy(sqlite, {
      get: (target, name, receiver) =>
        name === "prepare"
          ? (source: string) => {
              prepared++;
              return prepare(source);
            }
          : (Reflect.get(target, name, receiver) as unknown),
    });
    const queries = prepareQueries(drizzle(counting, { schema }));
    expect(prepared).toBe(0);
    const years = queries.years;
    expect(prepared).toBe(1);
    expect(queries.years).toBe(years);
    expect(prepared).toBe(1);
    expect(years.all().length).toBeGreaterThan(0);
    // Every statement there is can still be read (and is prepared once each).
    const names = Object.keys(queries);
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(queries[name as keyof typeof queries]).toBeDefined();
    expect(prepared).toBe(names.length);
  });

  it("answers through a store as before: the same counties for a ZIP on two stores", () => {
    const a = new PlanStore(TEST_PLAN_STORE);
    const b = new PlanStore(TEST_PLAN_STORE);
    try {
      expect(a.isSample()).toBe(b.isSample());
      expect(a.countiesForZip("75201")).toEqual(b.countiesForZip("75201"));
    } finally {
      a.close();
      b.close();
    }
  });
});
