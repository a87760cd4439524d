import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import {
  ALL_FAMILIES,
  attackCorpus,
  benignCorpus,
  EARLIER_ATTACK_FILES,
  headerCorpus,
  type Family,
} from "../../fixtures/firewall/corpus";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  measure,
  requestWith,
  type Measurement,
} from "../../fixtures/firewall/measure";
import { heldOutOf } from "../../fixtures/firewall/split";

/**
 * Issue 30 item 4: the firewall measured on what it was not tuned on. The held-out part of every
 * corpus (tests/fixtures/firewall/split.ts: at least a third, fixed by a committed seed, never
 * looked at while changing rules) through the engine in every place a value reaches the service.
 * The floors are the block rates reached on 2026-11-27 (docs/firewall.md): a rule change that
 * lowers one fails here. The targets are ≥ 95 % in structured places for every family and
 * ≥ 80 % of SQLi and XSS in free text; where a floor is under a target, docs/firewall.md says so.
 * The public corpora (public/, read from local snapshots; a tuning and a held-out part since round 3,
 * docs/decisions/430) are measured by `npm run firewall:measure`: the snapshots are absent in CI,
 * so their figures are in docs/firewall.md only.
 * A generous budget: a loaded machine must not turn an overrun into a pass (firewall-overrun.test.ts
 * covers the budget itself).
 */

/** Held-out floors in path, query, header, cookie, JSON, form and multipart, by family. */
const STRUCTURED_FLOORS: Record<Family, number> = {
  // Round 2 (2026-11-27 09:40 UTC, docs/decisions/415-419): SQLi 100 %, XSS 98.5-98.8 %,
  // traversal 98.6-99.3 %, SSRF 100 %, NoSQL 96.2-96.7 % with issue-30-round2.json's held-out part.
  sqli: 0.99,
  xss: 0.97,
  // 95.2-95.5 % on 2026-11-27 09:14 UTC (docs/decisions/410); 96.1-96.4 % after round 3
  // (14:47 UTC, docs/decisions/431); 100 % CRLF.
  cmdi: 0.955,
  traversal: 0.97,
  ssrf: 0.98,
  nosql: 0.95,
  crlf: 0.98,
};
/**
 * The held-out part of the lists that existed before issue-30-shell.json (written while the
 * command and CRLF rules were changed): 95.5-96.1 % of command injection, 100 % of CRLF; 97.0-97.4 %
 * of command injection after round 3.
 */
const EARLIER_FLOORS: Partial<Record<Family, number>> = { cmdi: 0.965, crlf: 0.98 };
/**
 * Held-out floors in the forms' free-text fields (notes, names, addresses), every list. Round 2's
 * SQLi strings (issue-30-round2.json) are mostly shapes kept out of free text on purpose (a quote
 * then "or"/"and" and a comparison, a statement after a semicolon: an agent's note has them), so
 * every list's free-text SQLi rate fell from 94.6 % to 92.1 % with no string of the earlier lists
 * passing that was blocked before (EARLIER_FREE_TEXT_FLOORS); the target is 80 %.
 */
const FREE_TEXT_FLOORS: Partial<Record<Family, number>> = { sqli: 0.9, xss: 0.95 };
/** The earlier lists' free-text floors (94.6 % SQLi, 96.7 % XSS before and after round 2). */
const EARLIER_FREE_TEXT_FLOORS: Partial<Record<Family, number>> = { sqli: 0.94, xss: 0.95 };

let engine: FirewallEngine;
let m: Measurement;
let earlier: Measurement;

beforeAll(async () => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
  m = await measure(engine, { split: "held-out", families: ALL_FAMILIES });
  earlier = await measure(engine, {
    attacks: attackCorpus("held-out", EARLIER_ATTACK_FILES),
    families: ["cmdi", "crlf", "sqli", "xss"],
    benign: false,
  });
}, 120_000);

const rate = ([blocked, tested]: [number, number]) => (tested === 0 ? 0 : blocked / tested);

describe("the held-out split", () => {
  it("holds out at least a third of every corpus, the same strings on every run", () => {
    const all = attackCorpus("all");
    const held = attackCorpus("held-out");
    const tuning = attackCorpus("tuning");
    for (const family of ALL_FAMILIES) {
      const base = all[family].filter((s) => !s.includes("\f"));
      expect(heldOutOf(base).size / new Set(base).size, family).toBeGreaterThanOrEqual(1 / 3);
      // No string is on both sides.
      expect(
        held[family].filter((s) => tuning[family].includes(s)),
        family,
      ).toEqual([]);
    }
    const benignAll = benignCorpus("all");
    for (const [group, list] of Object.entries(benignAll))
      expect(heldOutOf(list).size / new Set(list).size, group).toBeGreaterThanOrEqual(1 / 3);
    expect(attackCorpus("held-out")).toEqual(held);
  });
});

describe("held-out attacks", () => {
  for (const family of ALL_FAMILIES)
    for (const location of LOCATIONS)
      it(`blocks at least ${STRUCTURED_FLOORS[family] * 100} % of held-out ${family} in ${location}`, () => {
        const got = m.detection[family][location];
        expect(got[1]).toBeGreaterThanOrEqual(8);
        expect(rate(got), `${got[0]}/${got[1]}`).toBeGreaterThanOrEqual(STRUCTURED_FLOORS[family]);
      });

  for (const [family, floor] of Object.entries(EARLIER_FLOORS) as Array<[Family, number]>)
    for (const location of LOCATIONS)
      it(`blocks at least ${floor * 100} % of the earlier lists' held-out ${family} in ${location}`, () => {
        const got = earlier.detection[family][location];
        expect(got[1]).toBeGreaterThanOrEqual(8);
        expect(rate(got), `${got[0]}/${got[1]}`).toBeGreaterThanOrEqual(floor);
      });

  for (const [family, floor] of Object.entries(FREE_TEXT_FLOORS) as Array<[Family, number]>)
    for (const location of FREE_TEXT_LOCATIONS)
      it(`blocks at least ${floor * 100} % of held-out ${family} in ${location}`, () => {
        const got = m.detection[family][location];
        expect(rate(got), `${got[0]}/${got[1]}`).toBeGreaterThanOrEqual(floor);
      });

  for (const [family, floor] of Object.entries(EARLIER_FREE_TEXT_FLOORS) as Array<[Family, number]>)
    for (const location of FREE_TEXT_LOCATIONS)
      it(`blocks at least ${floor * 100} % of the earlier lists' held-out ${family} in ${location}`, () => {
        const got = earlier.detection[family][location];
        expect(rate(got), `${got[0]}/${got[1]}`).toBeGreaterThanOrEqual(floor);
      });

  it("blocks the held-out attack headers", () => {
    const { attacks } = headerCorpus("held-out");
    expect(attacks.length).toBeGreaterThanOrEqual(5);
    for (const [name, value] of attacks)
      expect(engine.inspect({ url: "/", headers: { [name.toLowerCase()]: value } }).blocked, name).toBe(true);
  });
});

describe("held-out benign strings", () => {
  for (const location of LOCATIONS)
    it(`blocks none of the held-out strings typed into search and structured fields, in ${location}`, () => {
      const { blocked, tested } = m.placed[location];
      expect(tested).toBeGreaterThan(150);
      expect(blocked).toBe(0);
    });

  for (const location of FREE_TEXT_LOCATIONS)
    it(`blocks none of the held-out benign strings in ${location}`, () => {
      const { blocked, tested } = m.falsePositives[location];
      expect(tested).toBeGreaterThan(400);
      expect(blocked).toBe(0);
    });

  for (const location of LOCATIONS)
    it(`blocks at most 0.1 % of every held-out benign string put in ${location}, notes included`, () => {
      // "5 < 6 and 7 > 3" is a boolean injection into a numeric field (docs/decisions/280).
      const { blocked, tested } = m.falsePositives[location];
      expect(blocked / tested).toBeLessThanOrEqual(0.0025);
    });

  it("passes the held-out benign headers", () => {
    for (const [name, value] of headerCorpus("held-out").benign)
      expect(engine.inspect({ url: "/", headers: { [name.toLowerCase()]: value } }).blocked, name).toBe(false);
  });

  it("passes ordinary inputs in every structured place: searches that are command words, apostrophes, '#', drugs, comparisons, URLs, emails", async () => {
    // Issue 30 item 4: the command and CRLF rules (docs/decisions/410-414) against what visitors type.
    const ordinary = [
      ...["id", "ls", "env", "set", "pwd", "ver", "who", "w", "df", "free", "mount", "groups", "whois", "cd", "at now"],
      ...[
        "type 2 diabetes",
        "Diabetes; type 2",
        "Mount Sinai",
        "mount sinai",
        "curl cream",
        "sleep apnea",
        "sleep study",
      ],
      ...[
        "cat scan",
        "MRI; cat scan",
        "find a doctor",
        "more plans",
        "head & neck",
        "less than $50",
        "echo test",
        "Cardiology; echo",
      ],
      ...[
        "O'Brien",
        "D'Angelo",
        "O’Neil",
        "123 Main St #4",
        "Apt #12B",
        "Apt 4B; rear",
        "Unit 3; rear entrance",
        "#1/2",
      ],
      ...[
        "Humalog Mix 75/25",
        "Lantus; Humalog",
        "Eliquis | Xarelto",
        "metformin ER 500mg & 1000mg",
        "lidocaine 5% patch",
      ],
      ...[
        "5 < 6",
        "x > 3",
        "2 > 1",
        "Budget <= $300 & deductible < $2k",
        "100% covered",
        "cost (est.) $30",
        "$(approx) 300",
      ],
      ...[
        "https://www.healthcare.gov/see-plans/",
        "http://example.com/a?b=c&d=e",
        "mary.smith@example.com",
        "jo+test@gmail.com",
      ],
      ...[
        "Plan A; Start-Up",
        "Out-Of-Network",
        "Add-On dental",
        "Set-Aside",
        "Ste 200 & 201",
        "Net premium; $50",
        "A&B; Type 1",
      ],
      ...[
        "Vitamin D+Calcium",
        "C++",
        "for you; do it",
        "if [ yes ]",
        "(see note)",
        "Plan (2027)",
        "report.exe",
        "setup.exe",
      ],
      ...[
        "host family",
        "Union; host",
        "which plan",
        "ping me",
        "python",
        "Ruby Smith",
        "Java Jones",
        "(more info)",
        "(id card)",
      ],
    ];
    for (const value of ordinary)
      for (const location of LOCATIONS) {
        const request = await requestWith(value, location);
        if (request) expect(engine.inspect(request).blocked, `${value} in ${location}`).toBe(false);
      }
  });

  it("passes ordinary inputs that look like round 2's SQL, script, path, URL and NoSQL shapes, in every structured place", async () => {
    // Issue 30 item 4 round 2 (docs/decisions/415-419): what visitors type beside the new rules.
    const ordinary = [
      ...["AT&T", "Johnson & Johnson", "I <3 my plan", "select a plan", "union street", "drop-in clinic"],
      ...[
        "¿Cuál es el mejor plan para mí?",
        "Señora Núñez; Española, NM",
        "O'Brien or Smith",
        "Rock 'n' roll",
        "Kids' plan",
      ],
      ...[
        "Plan 'A' or 'B'",
        'Plan "A" or "B" = same network?',
        "He said 'no' -- then called back",
        "Sleep (5)",
        "sleep (8 hours)",
      ],
      ...[
        "Ambetter; Select * Health; Oscar",
        'Wants "low deductible" and budget = 300/mo',
        "grant all permissions to my daughter",
      ],
      ...["c/o Mary Smith", "A: Windows laptop", "Q: where? A: home", "/home visit", "24/7 nurse line", "w/o dental"],
      ...["ABCDEFGH12345678", "Ambetter", "Molina2027", "HealthSherpa", "index", "config", "notes.txt", "N/A"],
      ...[
        "https://nip.io/",
        "https://www.localplans.example/",
        "http://metadata.example.com/",
        "https://www.cms.gov/medicare",
      ],
      ...[
        "$where to apply?",
        "Budget: $ne 300",
        "Q&A || help",
        "true or false",
        "yes || no",
        "Tylenol 'extra strength'",
        "Lantus; return policy",
        "<b>Urgent</b>: renewal",
        "<none>",
        "x < y > z",
        'Plan "A" > Plan "B"',
        "I <3 you; 5 > 4",
        "O'Brien; return call",
        "notes/agent.txt",
        "https://www.healthcare.gov/glossary/",
      ],
    ];
    for (const value of ordinary)
      for (const location of LOCATIONS) {
        const request = await requestWith(value, location);
        if (request) expect(engine.inspect(request).blocked, `${value} in ${location}`).toBe(false);
      }
  });

  it('passes the searches "id", "ls" and "env" in a query (issue 30), and still blocks them as commands', async () => {
    for (const value of ["id", "ls", "env"]) {
      expect(engine.inspect((await requestWith(value, "query"))!).blocked, value).toBe(false);
      expect(engine.inspect((await requestWith(`; ${value}`, "query"))!).blocked, `; ${value}`).toBe(true);
    }
  });
});
