import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as NativeAppsec from "@datadog/native-appsec";
import type { DDWAF as DDWAFInstance } from "@datadog/native-appsec";
import { buildRuleSet, type FirewallRuleSet } from "./ruleset";
import { BoundedCache } from "../../app/server/platform/cache.server";
import { ADDRESS } from "./ruleset";
import { catalogueMatch, freeTextMatch, warmCatalogues, type CatalogueMatch } from "./catalogue";
import { CHUNK_ENTRIES, collect, mergeParts, partKeys, type Part, type RequestData } from "./request-data";

/**
 * The firewall's engine: libddwaf (Datadog's WAF library, through
 * @datadog/native-appsec's prebuilt binary). Its regular expressions run on
 * RE2, which matches in time linear in the input, and each request gets a
 * time budget in microseconds: past it the engine stops and the request is
 * decided by what matched so far (docs/decisions/181, 183).
 */

/** The engine's time per request (µs). The benign corpus runs at p99 well under 1 ms; see docs/firewall.md. */
export const FIREWALL_BUDGET_MICROS = 20_000;
/**
 * The budget of the engine in the inspector's worker thread (inspector.ts), which judges large
 * requests off the event loop (decision 533). The 20 ms above protects the event loop (issue 30
 * item 6); the worker holds no loop, and the engine's input limits bound a run to ~20 ms on a
 * quiet core, so on a busy host the worker's run would overrun 20 ms and an ordinary large request
 * (478 plan ids) would be refused as busy. Five times that bounds a worker's turn all the same.
 */
export const OFF_LOOP_BUDGET_MICROS = 100_000;

export interface Verdict {
  blocked: boolean;
  /** The first matching rule's id (logged), e.g. `crs-942-100`. */
  rule?: string;
  /** Its family, e.g. `sql_injection`. */
  type?: string;
  /** Where it matched: `path`, `query:<name>`, `header:<name>`, `body:<field.path>`. */
  where?: string;
  /** The budget ran out before every rule had run. */
  overrun: boolean;
  /** More to read than the engine is handed (request-data.ts, ENGINE_INPUT_LIMITS): refused unjudged. */
  overLimit: boolean;
  /** Plain tokens past the limits, left unread. */
  unread: number;
  /** Every part's verdict was remembered: the engine did not run. */
  remembered: boolean;
  /** Engine time, µs. */
  micros: number;
}

export interface EngineStats {
  inspected: number;
  blocked: number;
  overruns: number;
  /** Requests refused because they carried more than the engine is handed. */
  overLimit: number;
  /** Requests whose every part had a remembered clean verdict. */
  remembered: number;
  /** Runs in which libddwaf itself cut a string or container (never expected: the inputs stay inside its limits). */
  engineTruncations: number;
}

/** What the rules are to read of a request (FirewallEngine.prepare). */
export interface PendingInspection {
  input: Record<string, unknown>;
  unread: number;
  paths: Record<string, string[]>;
  /** The parts read, remembered clean after a clean run. */
  pending: Part[];
  /** Values and characters handed over (request-data.ts's budget): what the run will cost. */
  handed: { values: number; chars: number };
}

/** The verdict of a request whose every part was remembered clean (shared: nobody changes a verdict). */
const REMEMBERED: Verdict = Object.freeze({
  blocked: false,
  overrun: false,
  overLimit: false,
  unread: 0,
  remembered: true,
  micros: 0,
});

/**
 * CPU time of the calling thread, µs: Linux's /proc/thread-self/schedstat (nanoseconds, brought up
 * to date at the scheduler's ticks, so it can read a few ms low: at worst one retry more), else the
 * process's (node 20 has no per-thread clock of its own).
 */
const THREAD_SCHEDSTAT = "/proc/thread-self/schedstat";
const hasThreadClock = existsSync(THREAD_SCHEDSTAT);
export function threadCpuMicros(): number {
  if (hasThreadClock) {
    const nanos = Number(readFileSync(THREAD_SCHEDSTAT, "utf8").split(" ")[0]);
    if (nanos > 0) return nanos / 1_000;
  }
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** Runs of the rules after a first overrun, when the machine (not the input) was the reason. */
const OVERRUN_RETRIES = 2;

/** Parts whose verdicts are remembered: their keys' characters in all (parts over 2 KB have no key). */
const CLEAN_PARTS_CHARS = 2_000_000;

interface WafEvent {
  rule: { id: string; tags?: { type?: string } };
  rule_matches?: Array<{
    parameters?: Array<{ address?: string; key_path?: Array<string | number>; value?: unknown; highlight?: string[] }>;
  }>;
}

/**
 * libinjection fingerprints (token classes: n word, U union, E select, T a
 * T-SQL keyword, s string, & and/or, 1 number) that ordinary text produces
 * and no attack in the corpus needs: "Anthem Union Select Gold" is nUEn,
 * "Compare Union Select Gold and Silver 70 HMO; …" nUEn&, "Please 'OR' not"
 * s&s, "Print(2 copies)" T(1n). Not 1&1: "5 < 6 and 7 > 3" has it, but so
 * has "1 OR 1=1" (docs/decisions/280).
 * A libinjection match with only these fingerprints blocks nothing by
 * itself; any other rule matching still blocks (docs/decisions/184).
 */
export const PROSE_FINGERPRINTS = new Set(["nUEn", "nUEn&", "nEnUE", "s&s", "T(1n)"]);

/**
 * In free text (notes, names, addresses) a libinjection fingerprint blocks only when it has a
 * string breaking out (s), a comment (c), a stacked statement (;) or a UNION (U): "5 < 6 and 7 > 3"
 * (1&1) and "Print(2 copies)" are sentences there (issue 30 item 4, docs/decisions/391).
 */
const FREE_TEXT_STRONG = /[sc;U]/;

/**
 * "; call" then a person, a time or a place, not a procedure: "Refill; call pharmacy (Walgreens)",
 * "5; call me (evenings)". libinjection reads CALL as a stored procedure's (`n;Tn(`, `1;Tn(`), so
 * in free text that stacked CALL alone is no statement (docs/decisions/480). A name glued to `_`,
 * `.`, `$` or `(` ("call my_proc(", "call me(1)") is still a procedure's, and a value with a second
 * statement, a quote or a comment is read as before.
 */
const NOTE_CALL =
  /;\s*call\s+(?:me|us|him|her|them|you|back|the|my|our|your|his|their|a|an|after|before|later|when|if|to|at|on|in|pharmacy|doctor|office|agent|clinic|insurer)\b(?![_.$(])/i;

function isProseFingerprint(event: WafEvent): boolean {
  if (event.rule.id !== "crs-942-100") return false;
  const parameters = (event.rule_matches ?? []).flatMap((m) => m.parameters ?? []);
  const highlights = parameters.flatMap((p) => p.highlight ?? []);
  if (highlights.length === 0) return false;
  if (highlights.every((h) => PROSE_FINGERPRINTS.has(h))) return true;
  if (!parameters.every((p) => p.address === ADDRESS.freeText)) return false;
  // Only a note's one stacked CALL: libinjection's fingerprint stops at five tokens, so a second
  // statement, a quote or a comment after it would not show in `h`.
  const noteCall = parameters.every(
    (p) => typeof p.value === "string" && NOTE_CALL.test(p.value) && !/;[^;]*;|['"#`]|--|\/\*/.test(p.value),
  );
  return highlights.every((h) => !FREE_TEXT_STRONG.test(noteCall ? h.replace(";T", "T") : h));
}

export class FirewallEngine {
  readonly rulesVersion: string;
  readonly ruleCount: number;
  readonly stats: EngineStats = {
    inspected: 0,
    blocked: 0,
    overruns: 0,
    overLimit: 0,
    remembered: 0,
    engineTruncations: 0,
  };
  /** Whether part verdicts may be remembered (every rule judges one value at a time; see partsAreIndependent). */
  readonly remembersParts: boolean;
  private readonly waf: DDWAFInstance;
  private readonly types: Map<string, string>;
  /**
   * Parts (the URL, one header, the cookies) last judged clean, by their exact
   * text (docs/decisions/282). A request whose every part is here and that has
   * no body is not run through the engine again.
   */
  private readonly clean = new BoundedCache<string, number>({ limit: CLEAN_PARTS_CHARS, weigh: (length) => length });

  private warmed = false;

  /**
   * `warm`: run the warm-up now (default). server.ts passes false and warms the engine once its
   * first answer is written (docs/decisions/461): a request judged before then is judged in full,
   * its run compiling what it needs.
   */
  constructor(
    ruleSet: FirewallRuleSet = buildRuleSet(),
    readonly budgetMicros = FIREWALL_BUDGET_MICROS,
    rememberParts = true,
    warm = true,
  ) {
    const { DDWAF } = createRequire(import.meta.url)("@datadog/native-appsec") as typeof NativeAppsec;
    this.waf = new DDWAF(ruleSet.config, "marketplace");
    const loaded = this.waf.diagnostics.rules;
    const failed = loaded && "failed" in loaded ? loaded.failed : [];
    if (failed.length > 0) throw new Error(`firewall rules failed to load: ${failed.join(", ")}`);
    this.rulesVersion = ruleSet.rulesVersion;
    this.ruleCount = ruleSet.config.rules.length;
    this.types = ruleSet.types;
    this.remembersParts = rememberParts && partsAreIndependent(ruleSet);
    if (warm) this.warmUp();
  }

  inspect(data: RequestData): Verdict {
    const prepared = this.prepare(data);
    return "verdict" in prepared ? prepared.verdict : this.settle(prepared, this.runPending(prepared));
  }

  /**
   * All of `inspect` that comes before the rules run: a verdict when none is needed (every part
   * remembered clean, more than the limits, a prototype key), else what the rules are to read.
   * The firewall runs a large one off the event loop (inspector.ts) and settles it here.
   */
  prepare(data: RequestData): { verdict: Verdict } | PendingInspection {
    // Already judged: a request without a body whose every part is remembered clean is answered
    // from the digests alone, before anything is collected, decoded or parsed (issue 29).
    if (this.remembersParts && this.allRemembered(data)) {
      this.stats.inspected++;
      this.stats.remembered++;
      return { verdict: REMEMBERED };
    }
    const collected = collect(data);
    const { parts, paths, unread, handed } = collected;
    const none = { overrun: false, overLimit: false, unread, remembered: false, micros: 0 };
    if (collected.overLimit) {
      this.stats.overLimit++;
      return { verdict: { ...none, blocked: false, overLimit: true } };
    }
    if (collected.prototypeKey) {
      // JSON.parse and URLSearchParams make such keys harmless own properties, but code that
      // merges objects would not: no form or API field is named so (replaces dog-000-006).
      this.stats.inspected++;
      this.stats.blocked++;
      return { verdict: { ...none, blocked: true, rule: "svc-js-001", type: "js_code_injection" } };
    }
    // get, not has: a part seen again is kept longer (has leaves its place in the order as it was).
    const pending = this.remembersParts ? parts.filter((p) => !this.remembered(p)) : parts;
    if (pending.length === 0) {
      this.stats.inspected++;
      this.stats.remembered++;
      return { verdict: { ...none, blocked: false, remembered: true } };
    }
    return { input: mergeParts(pending), unread, paths, pending, handed };
  }

  /**
   * The rules run on what `prepare` left to read, here, and run again (at most OVERRUN_RETRIES
   * times) when they ran out of time with nothing matched: the machine was busy (the run was
   * waiting for a core), and a second run usually finishes. A run again that itself uses the
   * budget of CPU on this thread is the input's own cost and ends the retries. This thread's, not
   * the process's: the inspector's thread (inspector.ts) building its rules beside a cold server's
   * first request made a retry look costly, and the request was refused as busy (decision 500).
   */
  runPending(p: PendingInspection): Verdict {
    // The first run is not timed: reading the CPU clock costs a system call on every request
    // (~5 % of a health check), and nearly every run finishes. Only a run again is timed.
    let verdict = this.run(p.input, p.unread, p.paths);
    for (let attempt = 0; verdict.overrun && !verdict.blocked && attempt < OVERRUN_RETRIES; attempt++) {
      const cpu = threadCpuMicros();
      verdict = this.run(p.input, p.unread, p.paths);
      if (threadCpuMicros() - cpu >= this.budgetMicros) return verdict;
    }
    return verdict;
  }

  /**
   * After the rules ran on a prepared inspection: a clean run judged each pending part clean on
   * its own (every rule reads one value at a time); an overrun or a part with values left unread
   * is judged again next time. `elsewhere`: the run was another engine's (off the event loop), so
   * it is counted here.
   */
  settle(p: PendingInspection, verdict: Verdict, elsewhere = false): Verdict {
    if (elsewhere) {
      this.stats.inspected++;
      if (verdict.blocked) this.stats.blocked++;
      if (verdict.overrun) this.stats.overruns++;
    }
    if (this.remembersParts && !verdict.blocked && !verdict.overrun && p.unread === 0)
      for (const part of p.pending) {
        if (part.key !== undefined) this.clean.set(part.key, part.key.length);
        if (part.bytesKey !== undefined) this.clean.set(part.bytesKey, part.bytesKey.length);
      }
    return verdict;
  }

  /** Whether a part was judged clean before; a body remembered by what it hands over is then also remembered by its bytes. */
  private remembered(part: Part): boolean {
    if (part.key === undefined || this.clean.get(part.key) === undefined) return false;
    if (part.bytesKey !== undefined) this.clean.set(part.bytesKey, part.bytesKey.length);
    return true;
  }

  private allRemembered(data: RequestData): boolean {
    const keys = partKeys(data);
    if (keys === undefined) return false;
    // get, not has: a part seen again is kept longer.
    for (const key of keys) if (this.clean.get(key) === undefined) return false;
    return true;
  }

  run(input: Record<string, unknown>, unread = 0, paths: Record<string, string[]> = {}): Verdict {
    const context = this.waf.createContext();
    const started = process.hrtime.bigint();
    let result;
    try {
      result = context.run({ ephemeral: input }, this.budgetMicros);
    } finally {
      context.dispose();
    }
    const micros = Number(process.hrtime.bigint() - started) / 1_000;
    this.stats.inspected++;
    if (result.timeout) this.stats.overruns++;
    const metrics = result.metrics;
    if (
      metrics &&
      (metrics.maxTruncatedString || metrics.maxTruncatedContainerSize || metrics.maxTruncatedContainerDepth)
    )
      this.stats.engineTruncations++;
    const common = { overrun: result.timeout, overLimit: false, unread, remembered: false, micros };
    const event = (result.events as WafEvent[] | undefined)?.find((e) => !isProseFingerprint(e));
    if (!event) {
      const reading = catalogueReading(input);
      if (!reading) return { ...common, blocked: false };
      this.stats.blocked++;
      return { ...common, blocked: true, rule: reading.rule, type: reading.type, where: WHERE[reading.address] };
    }
    this.stats.blocked++;
    return {
      ...common,
      blocked: true,
      rule: event.rule.id,
      type: this.types.get(event.rule.id),
      where: whereOf(event, paths),
    };
  }

  /**
   * libddwaf compiles some matchers on first use: run each address once so no visitor pays for it.
   * Once per engine; the counts are left as they were (requests may have been judged before it).
   */
  warmUp(): void {
    if (this.warmed) return;
    this.warmed = true;
    const counted = { ...this.stats };
    const sample = "warm up ' or 1=1 -- <script>alert(1)</script> ; cat /etc/passwd ../../x";
    for (let i = 0; i < 3; i++)
      this.run(
        mergeParts(
          collect({
            url: `/warm/${encodeURIComponent(sample)}?q=${encodeURIComponent(sample)}`,
            headers: { "user-agent": sample, cookie: `a=${encodeURIComponent(sample)}`, "x-test": sample },
            body: {
              fields: [
                ["notes", sample],
                ["zip", sample],
              ],
            },
          }).parts,
        ),
      );
    warmCatalogues();
    Object.assign(this.stats, counted);
  }
}

/** The addresses the collector hands over. */
const PROVIDED = new Set<string>(Object.values(ADDRESS));

/**
 * Whether a request's verdict is the OR of its parts' verdicts, so that a part
 * judged clean once is clean in any request: true when no rule needs two
 * conditions met by values the collector provides (a rule's second condition
 * on the response status, which is never provided, cannot match at all).
 */
export function partsAreIndependent(ruleSet: FirewallRuleSet): boolean {
  return ruleSet.config.rules.every(
    (rule) =>
      rule.conditions.filter((c) => (c.parameters.inputs ?? []).some((i) => PROVIDED.has(i.address))).length <= 1,
  );
}

const WHERE: Record<string, string> = {
  "server.request.uri.raw": "path",
  "server.request.path_params": "path",
  "server.request.query": "query",
  "server.request.body": "body",
  "marketplace.request.body.free_text": "body",
  "server.request.headers.no_cookies": "header",
  "marketplace.request.headers.text": "header",
  "server.request.cookies": "cookie",
};

/** The structured values the catalogues read (catalogue.ts): what the service rules read, less free text. */
const CATALOGUE_ADDRESSES = [ADDRESS.query, ADDRESS.body, ADDRESS.pathParams, ADDRESS.cookies, ADDRESS.textHeaders];

/**
 * The first structured value that runs a catalogued program or calls a catalogued SQL function, or
 * else the first free-text value with SQL no sentence has.
 */
function catalogueReading(input: Record<string, unknown>): (CatalogueMatch & { address: string }) | undefined {
  for (const address of CATALOGUE_ADDRESSES) {
    const match = firstMatch(input[address], catalogueMatch, 0);
    if (match) return { ...match, address };
  }
  // Free text gets its own, narrower readings (catalogue.ts, decision 530).
  const match = firstMatch(input[ADDRESS.freeText], freeTextMatch, 0);
  return match ? { ...match, address: ADDRESS.freeText } : undefined;
}

function firstMatch(
  value: unknown,
  read: (text: string) => CatalogueMatch | undefined,
  depth: number,
): CatalogueMatch | undefined {
  if (typeof value === "string") return read(value);
  if (value === null || typeof value !== "object" || depth > 8) return undefined;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const match = firstMatch(item, read, depth + 1);
    if (match) return match;
  }
  return undefined;
}

/**
 * Where a rule matched, for the log line: the part and the field's name,
 * never the value. A name that is not a plain identifier (it could be an
 * email address or the payload itself) is left out.
 */
function whereOf(event: WafEvent, paths: Record<string, string[]>): string | undefined {
  const parameter = event.rule_matches?.[0]?.parameters?.[0];
  if (!parameter?.address) return undefined;
  const part = WHERE[parameter.address] ?? parameter.address;
  if (part === "path") return "path";
  const keyPath = parameter.key_path ?? [];
  let name = String(keyPath[0] ?? "");
  const flattened = paths[parameter.address];
  // Flattened values: key_path is [chunk, index]; the field's path was kept beside them.
  if (flattened) name = /^\d+$/.test(name) ? (flattened[Number(name) * CHUNK_ENTRIES + Number(keyPath[1])] ?? "") : "";
  name = name.replace(/(?:~decoded)?(?:@\d+)?$/, "");
  return name !== "" && /^[\w.[\]-]{1,64}$/.test(name) ? `${part}:${name}` : part;
}
