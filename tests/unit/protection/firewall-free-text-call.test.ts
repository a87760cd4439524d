import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { FREE_TEXT_LOCATIONS, locationsBlocking } from "../../fixtures/firewall/measure";

/**
 * docs/decisions/480: in a free-text field, "; call" then a person, a time or a place is a note,
 * not a stored procedure; a real stacked CALL, a second statement, a quote or a comment still is.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("a note's '; call …' in free text", () => {
  it.each([
    "5; call me (evenings)",
    "Refill; call pharmacy (Walgreens)",
    "2; call after 5 (work)",
    "Lost card; call me (cell) after 6",
  ])("passes as a note: %s", async (note) => {
    expect(await locationsBlocking(engine, note, FREE_TEXT_LOCATIONS)).toEqual([]);
  });

  it.each([
    "1; call my_proc(1)",
    "1; call me(1)",
    "x'; call me (1)",
    "n; call the (x); select 1",
    "n; call the (x) -- x",
    "1; drop table users",
  ])("is still refused as SQL: %s", async (attack) => {
    expect(await locationsBlocking(engine, attack, FREE_TEXT_LOCATIONS)).toEqual([...FREE_TEXT_LOCATIONS]);
  });
});
