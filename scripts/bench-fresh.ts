/**
 * `plansFresh` (docs/decisions/403): POST /api/plans with a new household every request, so that no
 * answer can come from the answer cache (decision 402) and the row measures what a first visit costs,
 * beside the `plans` row, which drives one household again and again (kept answers).
 *
 * The household is the benchmark's (the scenario's place and year, adults 40 and 38, children 10
 * and 7); only the income changes: from $90,001 up by a dollar a request, wrapping after 30,000
 * (~280% to ~375% of the poverty line for four: the same credit rule throughout, and never the
 * `plans` row's $90,000). Incomes are counted over the whole bench process, so no two requests of a
 * run (probes, warm-ups, rounds, both sides of --compare) carry the same body; at the rates measured
 * here none comes round again within the cache's minute, and a run that saw a kept answer fails.
 */
import { load, probe, type Endpoint, type Probe } from "./bench-lib";
import type { FreshIncome, LoadResult, LoadSpec } from "./bench-load";

const FRESH_INCOME = { from: 90_001, span: 30_000 };
let freshNext = 0;

/** `body` (a plan-list request) with the next new household's income. */
export function freshBody(body: string): string {
  const income = FRESH_INCOME.from + (freshNext++ % FRESH_INCOME.span);
  return JSON.stringify({ ...(JSON.parse(body) as object), income });
}

const timingOf = (p: Probe) => String(p.headers["server-timing"] ?? "");
const isKept = (p: Probe) => /(^|,)\s*answer-cache\b/.test(timingOf(p));
const isPriced = (p: Probe) => /(^|,)\s*pricing\b/.test(timingOf(p));

/**
 * Checks that the endpoint measures what it says: two new households are priced (Server-Timing
 * `pricing`, no `answer-cache`), and the second asked again is a kept answer (so the check can tell
 * the two apart). Returns the first answer (its size goes in the table) and a sentence for the log.
 * `pricing: false` (an older ref in --compare, whose Server-Timing may name its parts otherwise):
 * only no `answer-cache` is required.
 */
export async function probeFresh(base: string, e: Endpoint, pricing = true): Promise<{ first: Probe; said: string }> {
  const bodies = [freshBody(e.body ?? "{}"), freshBody(e.body ?? "{}")];
  const answers: Probe[] = [];
  for (const body of bodies) answers.push(await probe(base, e.method, e.path, body));
  const again = await probe(base, e.method, e.path, bodies[1]);
  for (const r of [...answers, again])
    if (r.status !== 200) throw new Error(`${e.label} answered ${r.status}: ${r.body.slice(0, 500)}`);
  if (!answers.every((r) => (isPriced(r) || !pricing) && !isKept(r)))
    throw new Error(`${e.label}: a new household was not priced (Server-Timing ${answers.map(timingOf).join(" / ")})`);
  const incomes = bodies.map((b) => (JSON.parse(b) as { income: number }).income);
  return {
    first: answers[0]!,
    said: `incomes $${incomes.join(" and $")} priced (Server-Timing pricing, no answer-cache); the second asked again: ${isKept(again) ? "a kept answer (answer-cache)" : "priced again"}`,
  };
}

/**
 * The load run of an endpoint: a `fresh` one gets incomes after every one used so far (the load
 * generator writes them in autocannon's setupRequest and reads each answer's Server-Timing). A kept
 * answer in it means the row no longer measures a first visit: an error, not a figure.
 */
export async function loadEndpoint(e: Endpoint, spec: Omit<LoadSpec, "fresh">): Promise<LoadResult> {
  if (!e.fresh) return load(spec);
  const fresh: FreshIncome = { ...FRESH_INCOME, start: freshNext };
  const result = await load({ ...spec, fresh });
  freshNext += result.fresh?.bodies ?? 0;
  const f = result.fresh;
  if (!f || f.kept > 0)
    throw new Error(`${e.label}: ${f?.kept ?? "?"} kept answers in the measured run (decision 403 wants none)`);
  return result;
}

/** A sentence for under the results table: how many households, which incomes, how many kept. */
export function freshSaid(result: LoadResult): string {
  const f = result.fresh;
  if (!f) return "";
  const money = (n: number) => `$${n.toLocaleString("en-US")}`;
  return `${f.priced + f.kept + f.other} answers to as many households (incomes ${money(f.firstIncome)} to ${money(f.lastIncome)} over the run, warm-up included, a dollar apart): ${f.priced} priced, ${f.kept} kept${f.other ? `, ${f.other} neither` : ""}`;
}
