import { createRequire } from "node:module";
import { SERVICE_RULES } from "./service-rules";

/**
 * The rule set the firewall engine runs (docs/decisions/181): Datadog's
 * recommended App and API Protection rules (OWASP CRS-derived regular
 * expressions run by RE2, plus libinjection's SQL-injection and XSS
 * detectors), loaded at start from the dd-trace package that publishes them,
 * never copied into this repository, plus the few service rules in
 * service-rules.ts that cover what it lacks. Updating dd-trace updates the rules.
 */

/** Where dd-trace keeps the recommended rule set; `npm update dd-trace` refreshes it. */
export const RECOMMENDED_RULES_MODULE = "dd-trace/packages/dd-trace/src/appsec/recommended.json";

/** Request parts, by the engine's address names. The first six are libddwaf's own. */
export const ADDRESS = {
  uriRaw: "server.request.uri.raw",
  query: "server.request.query",
  body: "server.request.body",
  pathParams: "server.request.path_params",
  headers: "server.request.headers.no_cookies",
  cookies: "server.request.cookies",
  /** User-Agent, Referer and X-* headers: the ones shown as text in logs and analytics. */
  textHeaders: "marketplace.request.headers.text",
  /** Fields stored and shown as text (names, notes, needs, tools, addresses): high-confidence rules only. */
  freeText: "marketplace.request.body.free_text",
} as const;

/** Attack families the firewall blocks (the rule's `tags.type`). */
export const BLOCKED_TYPES = new Set([
  "sql_injection",
  "xss",
  "command_injection",
  "lfi",
  "rfi",
  "ssrf",
  "js_code_injection",
  "php_code_injection",
  "java_code_injection",
  "nosql_injection",
  "exploit_detection",
  "attack_tool",
  "security_scanner",
  "http_protocol_violation",
  "xxe",
]);

/**
 * Published rules replaced by service rules, because they match prose:
 * - `crs-941-210`, `crs-941-390` ("alert (daily)", "Eval(pending)") and
 *   `crs-941-170` ("JavaScript: ES6 (modern)", "Skills: JavaScript: advanced"):
 *   svc-xss-001/002/003 keep the code-shaped cases (`javascript:alert(1)`,
 *   `alert(1)`, `@import 'http://…'`, `-moz-binding:`);
 * - `crs-930-110` matches a path ending in `/...`, an ordinary segment for a
 *   POSIX path and a URL; svc-lfi-004 is the same rule less that one case
 *   (docs/decisions/280);
 * - `dog-000-006` (prototype pollution) looks for the keys `constructor` and
 *   `prototype` in two conditions, which the flattened values never show it;
 *   the collector flags such keys itself (`svc-js-001`, engine.ts), and with
 *   every rule reading one value at a time part verdicts can be remembered
 *   (docs/decisions/282).
 */
export const REPLACED_RULES = new Set(["crs-941-210", "crs-941-390", "crs-941-170", "crs-930-110", "dog-000-006"]);

export interface WafRule {
  id: string;
  name: string;
  tags: { type: string; category: string; confidence?: string; module?: string; [tag: string]: string | undefined };
  conditions: Array<{
    operator: string;
    parameters: { inputs?: Array<{ address: string; key_path?: string[] }>; [key: string]: unknown };
  }>;
  transformers?: string[];
  on_match?: string[];
  /** False on the published rules that ship disabled (they never run). */
  enabled?: boolean;
}

interface RecommendedRuleSet {
  version: string;
  metadata?: { rules_version?: string };
  rules: WafRule[];
}

export interface FirewallRuleSet {
  config: { version: string; metadata: { rules_version: string }; rules: WafRule[] };
  rulesVersion: string;
  /** Rule id → attack family, for logs and counts. */
  types: Map<string, string>;
}

/**
 * Build the engine's configuration from the published rule set:
 * - keep the request-blocking (`module: waf`) rules of the families above,
 *   minus the low-confidence ones (`confidence: 0`: scanner fingerprints that
 *   also match ordinary clients);
 * - a rule that reads query or body values also reads path segments, cookies
 *   and the text headers (the published set reads them only for some rules;
 *   here they reach pages and logs the same way);
 * - free-text fields are read only by rules tagged `confidence: 1`, the
 *   published set's high-confidence ones, and by the SQL injection rules
 *   (issue 30 item 4): libinjection there blocks only with a fingerprint that
 *   has a string, a comment, a stacked statement or a UNION (engine.ts,
 *   FREE_TEXT_STRONG), so "Ambetter; Select * Health; Oscar" and
 *   "5 < 6 and 7 > 3" stay notes.
 */
export function buildRuleSet(recommended: RecommendedRuleSet = loadRecommended()): FirewallRuleSet {
  const rules: WafRule[] = [];
  for (const rule of [...recommended.rules, ...SERVICE_RULES]) {
    if (rule.tags.module !== undefined && rule.tags.module !== "waf") continue;
    // A rule the published set ships disabled never runs: handing it to libddwaf only made the
    // engine compile its lists at every start (~6 ms of 28, issue 29, docs/decisions/460).
    if (rule.enabled === false) continue;
    if (!BLOCKED_TYPES.has(rule.tags.type) || rule.tags.confidence === "0" || REPLACED_RULES.has(rule.id)) continue;
    const copy = structuredClone(rule);
    delete copy.on_match;
    // libddwaf stops a family's rules at its first match; every rule its own
    // family lets libinjection's verdict be weighed against the others (engine.ts).
    copy.tags.family = rule.tags.type;
    copy.tags.type = `${rule.tags.type}.${rule.id}`;
    for (const condition of copy.conditions) {
      const inputs = condition.parameters.inputs;
      if (!inputs) continue;
      const readsValues = inputs.some((i) => i.address === ADDRESS.query || i.address === ADDRESS.body);
      if (!readsValues) continue;
      const add = [ADDRESS.pathParams, ADDRESS.cookies, ADDRESS.textHeaders] as string[];
      // SQL injection rules read free text too (issue 30: a note is stored through SQL as well);
      // libinjection's weaker fingerprints there block nothing by themselves (engine.ts).
      // A service rule tagged `scope: "structured"` (issue 30 round 2: shapes an agent's note can
      // have, "Plan 'A' or 'B'") stays out of free text whatever its type.
      if (copy.tags.confidence === "1" || (rule.tags.type === "sql_injection" && rule.tags.scope !== "structured"))
        add.push(ADDRESS.freeText);
      for (const address of add) if (!inputs.some((i) => i.address === address)) inputs.push({ address });
    }
    rules.push(copy);
  }
  const rulesVersion = recommended.metadata?.rules_version ?? "unknown";
  return {
    config: { version: recommended.version, metadata: { rules_version: rulesVersion }, rules },
    rulesVersion,
    types: new Map(rules.map((r) => [r.id, r.tags.family!])),
  };
}

export function loadRecommended(): RecommendedRuleSet {
  return createRequire(import.meta.url)(RECOMMENDED_RULES_MODULE) as RecommendedRuleSet;
}
