import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking } from "../../fixtures/firewall/measure";

/**
 * docs/decisions/482: an email address's plus tag ("john+or@var.es") is not a form encoder's space,
 * so the decoded view does not read it as "john or@var.es" (libinjection's `n&v`); a form-encoded
 * payload shaped otherwise is still decoded and refused.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

describe("an email address with a plus tag", () => {
  it.each(["john+or@var.es", "mary+and@example.com", "sam+select@mail.example.org", "a.b-c+or+and@x-y.co.uk"])(
    "passes everywhere: %s",
    async (address) => {
      expect(await locationsBlocking(engine, address, [...LOCATIONS, ...FREE_TEXT_LOCATIONS])).toEqual([]);
    },
  );

  it.each(["a+union+select+password+from+users@x.com", "x'+or+'1'='1", "|+cat+/etc/passwd", "1+or+1=1"])(
    "does not let a form-encoded payload through: %s",
    async (attack) => {
      expect(await locationsBlocking(engine, attack, ["json", "cookie"])).toEqual(["json", "cookie"]);
    },
  );
});
