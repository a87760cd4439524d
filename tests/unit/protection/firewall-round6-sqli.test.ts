import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { LOCATIONS, locationsBlocking, requestWith } from "../../fixtures/firewall/measure";

/**
 * docs/decisions/483: a SQL statement standing whole in a value (a stacked or quoted DROP, ALTER
 * TABLE … ADD, DELETE … WHERE a comparison, MERGE … USING, a system database, WAITFOR TIME, ORDER
 * BY n LIMIT n) is refused in structured places by svc-sqli-014; sentences that share its words pass.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("a SQL statement whole", () => {
  it.each([
    "from master..sysdatabases",
    "use tempdb",
    "MERGE INTO t USING s ON (1=1)",
    "alter table users add x int",
    "delete from users where 1=1",
    "DELETE FROM `orders` WHERE id > 5",
    "drop table `users`",
    "drop table user_data",
    "1 order by 1 desc limit 1",
    "1 waitfor time '23:59'",
  ])("is refused by svc-sqli-014: %s", async (statement) => {
    const request = await requestWith(statement, "query");
    const verdict = engine.inspect(request!);
    expect(verdict.blocked).toBe(true);
    expect(verdict.rule).toBe("svc-sqli-014");
  });

  it.each([
    "drop the plan",
    "Drop table reservation",
    "delete from my list",
    "how to delete from favorites",
    "use master bedroom",
    "alter table height",
  ])("passes as a sentence: %s", async (sentence) => {
    expect(await locationsBlocking(engine, sentence, LOCATIONS)).toEqual([]);
  });
});
