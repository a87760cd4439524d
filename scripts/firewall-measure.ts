// `npm run firewall:measure`: the firewall's detection and false-positive tables on the corpora in
// tests/fixtures/firewall (issue 18 item 4; tuning, held-out and public parts, issue 30 item 4),
// printed as Markdown for docs/firewall.md. `-- --missed` lists the tuning strings that pass (the
// project's tuning part, the public corpora's tuning part and the public tuning lists; never a
// held-out one); `-- --tuning-only` prints no held-out figure (docs/decisions/430); `-- --fresh`
// adds round 5's fresh sources, held out whole (counts only; docs/decisions/470); round 10's
// shell grammar and round 13's SQL grammar are always measured (their own splits;
// tests/fixtures/firewall/shell-grammar.ts, sql-grammar.ts);
// `-- --no-pathological` skips the worst-case timings. Runs the
// engine as production does (the same rules and time budget, in-process, no HTTP).
import os from "node:os";
import { FIREWALL_BUDGET_MICROS, FirewallEngine } from "../server/firewall/engine.ts";
import {
  ALL_FAMILIES,
  attackCorpus,
  EARLIER_ATTACK_FILES,
  ROUND1_ATTACK_FILES,
  type Family,
} from "../tests/fixtures/firewall/corpus.ts";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  measure,
  requestWith,
  type Measurement,
} from "../tests/fixtures/firewall/measure.ts";
import { plusForSpace, shellGrammarSample } from "../tests/fixtures/firewall/shell-grammar.ts";
import { sqlGrammarSample } from "../tests/fixtures/firewall/sql-grammar.ts";
import {
  PUBLIC_MIN_HELD_OUT,
  PUBLIC_SPLIT_SEED,
  publicCorpus,
  publicCorpusBySource,
  publicTuningCorpus,
} from "../tests/fixtures/firewall/public/load.ts";
import { freshCorpus } from "../tests/fixtures/firewall/public/fresh.ts";
import { HELD_OUT_SHARE, SPLIT_SEED } from "../tests/fixtures/firewall/split.ts";
import { pathologicalInputs } from "../tests/fixtures/firewall/pathological.ts";

const args = new Set(process.argv.slice(2));
// Nothing remembered between requests (docs/decisions/282): the times below are the engine's own.
// The rules' verdicts, not the machine's load: a generous budget, so that an overrun on a busy
// shared machine (which the middleware answers 503, docs/decisions/374) cannot count as a miss.
// The pathological timings below run with the production budget.
const DETECTION_BUDGET_MICROS = 1_000_000;
const engine = new FirewallEngine(undefined, DETECTION_BUDGET_MICROS, false);
const pct = (blocked: number, tested: number, digits = 1) =>
  tested === 0 ? "—" : `${((100 * blocked) / tested).toFixed(digits)} % (${blocked}/${tested})`;
const all = [...LOCATIONS, ...FREE_TEXT_LOCATIONS];

console.log(
  `Rules: recommended set ${engine.rulesVersion} and service rules, ${engine.ruleCount} in all; detection tables with a ${engine.budgetMicros} µs budget, production budget ${FIREWALL_BUDGET_MICROS} µs.`,
);
console.log(
  `Machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ${new Date().toISOString()}.`,
);
console.log(`Split: seed "${SPLIT_SEED}", ${HELD_OUT_SHARE * 100} % held out (tests/fixtures/firewall/split.ts).\n`);

// Issue 30 item 4: the tuning part, the held-out part (never looked at while changing rules) and
// the public corpora's tuning and held-out parts (docs/decisions/430), each by family and location.
// `--tuning-only` measures only what rules may be changed from (the project's tuning part, the
// public tuning part, the public tuning lists, benign strings): no held-out figure is printed, so
// rounds of rule changes cannot be steered by one.
const tuningOnly = args.has("--tuning-only");
const pubHeld = publicCorpus("held-out");
const pubTuning = publicCorpus("tuning");
const parts: Array<[string, Measurement]> = [
  ["Tuning part", await measure(engine, { split: "tuning", families: ALL_FAMILIES })],
];
if (!tuningOnly) {
  parts.push(["Held-out part", await measure(engine, { split: "held-out", families: ALL_FAMILIES })]);
  // The held-out part of the lists that existed before issue-30-shell.json: the comparison with the
  // first held-out figures, which strings added later (and tuned beside) cannot dilute.
  parts.push([
    "Held-out part of the earlier lists",
    await measure(engine, {
      attacks: attackCorpus("held-out", EARLIER_ATTACK_FILES),
      families: ALL_FAMILIES,
      benign: false,
    }),
  ]);
  // The held-out part of the lists before round 2 (issue-30-round2.json): the round's comparison.
  parts.push([
    "Held-out part of the lists before round 2",
    await measure(engine, {
      attacks: attackCorpus("held-out", ROUND1_ATTACK_FILES),
      families: ALL_FAMILIES,
      benign: false,
    }),
  ]);
}
let publicTuningPart: Measurement | undefined;
if (Object.keys(pubTuning.attacks).length > 0) {
  if (!tuningOnly) {
    const held = await measure(engine, { attacks: pubHeld.attacks, families: ALL_FAMILIES, benign: false });
    parts.push(["Public corpora, held-out part (never read; the evidence)", held]);
  }
  publicTuningPart = await measure(engine, { attacks: pubTuning.attacks, families: ALL_FAMILIES, benign: false });
  parts.push(["Public corpora, tuning part (misses may be read)", publicTuningPart]);
  if (!tuningOnly) {
    // The whole sample, as measured before round 3: the two parts added together.
    const whole = structuredClone(publicTuningPart);
    const held = parts.find(([t]) => t.startsWith("Public corpora, held-out"))![1];
    for (const family of ALL_FAMILIES)
      for (const l of all) {
        const [b, t] = held.detection[family][l];
        whole.detection[family][l] = [whole.detection[family][l][0] + b, whole.detection[family][l][1] + t];
      }
    parts.push(["Public corpora, whole sample (both parts; the figure before round 3)", whole]);
  }
}
// Public lists the rules may be tuned on (fuzzdb, payloadbox), less every string of the measured ones.
const tun = publicTuningCorpus();
const tuningFamilies = ALL_FAMILIES.filter((f) => (tun.attacks[f] ?? []).length > 0);
const publicTuning =
  tuningFamilies.length > 0
    ? await measure(engine, { attacks: tun.attacks, families: tuningFamilies, benign: false })
    : undefined;
if (publicTuning) parts.push(["Public tuning lists (tuningSources of manifest.json; tuned on)", publicTuning]);
// Round 5's fresh sources (docs/decisions/470): held out whole, measured once at the end of the
// round and only when asked for (`--fresh`); never with `--tuning-only`, and no string is printed.
const fresh = args.has("--fresh") && !tuningOnly ? freshCorpus() : undefined;
if (fresh) {
  const families = ALL_FAMILIES.filter((f) => (fresh.attacks[f] ?? []).length > 0);
  parts.push([
    "Fresh public sources (round 5; held out whole, never read)",
    await measure(engine, { attacks: fresh.attacks, families, benign: false }),
  ]);
}
for (const [title, m] of parts) {
  console.log(`${title}: attack strings blocked, by family and location:\n`);
  console.log(`| Family | ${all.join(" | ")} |`);
  console.log(`|---|${all.map(() => "---").join("|")}|`);
  for (const family of ALL_FAMILIES)
    if (m.detection[family])
      console.log(`| ${family} | ${all.map((l) => pct(...m.detection[family][l])).join(" | ")} |`);
  console.log("");
}
const whole = publicCorpus("all");
console.log(
  `Public corpora (split seed "${PUBLIC_SPLIT_SEED}", at least ${PUBLIC_MIN_HELD_OUT * 100} % held out per source and family), held-out / whole sample: ` +
    whole.counts
      .map((c, i) => {
        const h = pubHeld.counts[i]!.strings;
        return `${c.repo}@${c.commit.slice(0, 10)} ${c.family} ${h}/${c.strings} (${((100 * h) / Math.max(1, c.strings)).toFixed(0)} %)`;
      })
      .join("; "),
);
if (whole.missing.length > 0) console.log(`Public corpora not found (no local snapshot): ${whole.missing.join(", ")}`);
console.log(
  "Public tuning list: " +
    tun.counts.map((c) => `${c.repo}@${c.commit.slice(0, 10)} ${c.family} ${c.strings}`).join("; ") +
    `; ${tun.excluded} of its strings left out because a measured public corpus has them`,
);
if (tun.missing.length > 0) console.log(`Public tuning list not found (no local snapshot): ${tun.missing.join(", ")}`);
if (fresh)
  console.log(
    "Fresh public sources: " +
      fresh.counts.map((c) => `${c.repo}@${c.commit.slice(0, 10)} ${c.family} ${c.strings}`).join("; ") +
      `; ${fresh.excluded} of their strings left out as near duplicates of another source or the project's lists` +
      (fresh.missing.length > 0 ? `; not found: ${fresh.missing.join(", ")}` : ""),
  );

/** One line per repository and family: its block rate in one structured place (json) and in free text. */
async function printBySource(rows: Array<{ repo: string; family: Family; strings: string[] }>): Promise<void> {
  for (const { repo, family, strings } of rows) {
    const one = await measure(engine, { attacks: { [family]: strings }, families: [family], benign: false });
    const [b, t] = one.detection[family].json;
    const [fb, ft] = one.detection[family]["json-free-text"];
    console.log(`- ${repo} ${family}: ${pct(b, t)}; free text ${pct(fb, ft)}`);
  }
}

// Per source (counts only): which repository's strings the misses are in, for the part that may be
// printed — the held-out part only without `--tuning-only`, in one structured place (json) and in
// free text (json-free-text).
for (const split of tuningOnly ? (["tuning"] as const) : (["tuning", "held-out"] as const)) {
  console.log(`\nPublic corpora, ${split} part, by repository (json field / free text):`);
  await printBySource(publicCorpusBySource(split));
}
// The fresh sources by repository (counts only), so a source added in a later round (round 9's
// nemesida-waf/waf-bypass, docs/decisions/489) has its own first figure.
if (fresh) {
  console.log(`\nFresh public sources, by repository (json field / free text):`);
  await printBySource(fresh.bySource);
}
const benignParts = parts.filter(([t]) => t === "Tuning part" || t === "Held-out part");
for (const [title, m] of benignParts) {
  console.log(
    `\n${title}: benign strings blocked, every string in every location (free-text-only groups in free text):\n`,
  );
  console.log(`| Location | Blocked | Strings blocked |`);
  console.log(`|---|---|---|`);
  for (const l of all) {
    const f = m.falsePositives[l];
    // Held-out strings are reported by count only: reading them would be tuning on them.
    const shown = title.startsWith("Tuning") ? f.examples.map((e) => `\`${e}\``).join(", ") : "";
    console.log(`| ${l} | ${pct(f.blocked, f.tested, 2)} | ${shown} |`);
  }
}
for (const [title, m] of benignParts) {
  console.log(
    `\n${title}: benign strings blocked where they are typed (searches, names, addresses, plans, drugs, ids):\n`,
  );
  console.log(`| Location | Blocked | Strings blocked |`);
  console.log(`|---|---|---|`);
  for (const l of LOCATIONS) {
    const f = m.placed[l];
    const shown = title.startsWith("Tuning") ? f.examples.map((e) => `\`${e}\``).join(", ") : "";
    console.log(`| ${l} | ${pct(f.blocked, f.tested, 2)} | ${shown} |`);
  }
}
// Round 10's grammar of shell injections (tests/fixtures/firewall/shell-grammar.ts): a sample of
// each half's tuning part and held-out part, in a JSON field; strings writing a space as "+" apart.
const grammarMissed: string[] = [];
for (const { half, tuning: grammarTuning, heldOut: grammarHeldOut } of shellGrammarSample()) {
  for (const [part, strings] of [
    ["tuning", grammarTuning],
    ["held-out", grammarHeldOut],
  ] as const) {
    if (part === "held-out" && tuningOnly) continue;
    const tally = { real: [0, 0], plus: [0, 0] };
    for (const value of strings) {
      const request = await requestWith(value, "json");
      if (!request) continue;
      const blocked = engine.inspect(request).blocked;
      const row = plusForSpace(value) ? tally.plus : tally.real;
      row[1]! += 1;
      if (blocked) row[0]! += 1;
      else if (part === "tuning" && !plusForSpace(value)) grammarMissed.push(value);
    }
    console.log(
      `\nShell grammar, ${half}, ${part} part (json field): ${pct(tally.real[0]!, tally.real[1]!)}` +
        (tally.plus[1]! > 0
          ? `; writing a space as "+" (no shell reads it so) ${pct(tally.plus[0]!, tally.plus[1]!)}`
          : ""),
    );
  }
}
// Round 13's grammar of SQL injections (tests/fixtures/firewall/sql-grammar.ts): a sample of its
// tuning part and of its held-out part, in a JSON field and in a query.
const sqlGrammarMissed: string[] = [];
{
  const sample = sqlGrammarSample();
  for (const [part, strings] of [
    ["tuning", sample.tuning],
    ["held-out", sample.heldOut],
  ] as const) {
    if (part === "held-out" && tuningOnly) continue;
    const figures: string[] = [];
    for (const location of ["json", "query"] as const) {
      let blocked = 0;
      for (const value of strings) {
        const request = await requestWith(value, location);
        if (request && engine.inspect(request).blocked) blocked++;
        else if (part === "tuning" && location === "json") sqlGrammarMissed.push(value);
      }
      figures.push(`${location} ${pct(blocked, strings.length)}`);
    }
    console.log(`\nSQL grammar, ${part} part: ${figures.join("; ")}`);
  }
}
const m = parts[0]![1];
console.log(
  `\nFirewall time per benign request (tuning part): CPU p50 ${m.micros.p50} µs, p99 ${m.micros.p99} µs, max ${m.micros.max} µs; ` +
    `engine wall clock p50 ${m.wallMicros.p50.toFixed(0)} µs, p99 ${m.wallMicros.p99.toFixed(0)} µs; budget overruns ${engine.stats.overruns}.`,
);
if (args.has("--missed")) {
  // The tuning part's misses only: what rule changes may be made from.
  console.log("\nTuning strings that passed (family: location count, string):");
  for (const family of ALL_FAMILIES) {
    const where = new Map<string, string[]>();
    for (const l of all) for (const v of m.missed[family][l]) where.set(v, [...(where.get(v) ?? []), l]);
    for (const [v, ls] of where) console.log(`${family}\t${ls.join(",")}\t${JSON.stringify(v)}`);
  }
  if (publicTuningPart) {
    console.log(
      "\nPublic corpora's tuning part: strings that passed in a structured location (family: locations, string):",
    );
    for (const family of ALL_FAMILIES) {
      const where = new Map<string, string[]>();
      for (const l of LOCATIONS)
        for (const v of publicTuningPart.missed[family][l]) where.set(v, [...(where.get(v) ?? []), l]);
      for (const [v, ls] of where) console.log(`${family}\t${ls.join(",")}\t${JSON.stringify(v)}`);
    }
  }
  console.log("\nThe shell and SQL grammars' tuning parts: strings that passed in a JSON field:");
  for (const v of grammarMissed) console.log(`cmdi\tjson\t${JSON.stringify(v)}`);
  for (const v of sqlGrammarMissed) console.log(`sqli\tjson\t${JSON.stringify(v)}`);
  if (publicTuningPart) {
    // Free text has its own target for SQLi and XSS (80 %): the public tuning part's misses there.
    console.log("\nPublic corpora's tuning part: SQLi and XSS strings that passed in free text (family, string):");
    for (const family of ["sqli", "xss"] as const)
      for (const v of new Set(FREE_TEXT_LOCATIONS.flatMap((l) => publicTuningPart!.missed[family][l])))
        console.log(`${family}\tfree-text\t${JSON.stringify(v)}`);
  }
  if (publicTuning) {
    console.log("\nPublic tuning list strings that passed in a structured location (family: locations, string):");
    for (const family of tuningFamilies) {
      const where = new Map<string, string[]>();
      for (const l of LOCATIONS)
        for (const v of publicTuning.missed[family][l]) where.set(v, [...(where.get(v) ?? []), l]);
      for (const [v, ls] of where) console.log(`${family}\t${ls.join(",")}\t${JSON.stringify(v)}`);
    }
  }
}
if (args.has("--no-pathological")) process.exit(0);

// Worst cases (issue 18 item 2, docs/decisions/281): each pathological input as the middleware
// hands it over, with a fresh engine that remembers nothing. Best of 5 by CPU time: on a shared
// machine one wall-clock run of the same work varied from 1.5 to 150 ms.
const cold = new FirewallEngine(undefined, FIREWALL_BUDGET_MICROS, false);
console.log("\nPathological inputs (best of 5 by CPU time; engine = libddwaf's own run, wall clock):\n");
console.log("| Input | Verdict | Firewall CPU µs | Engine µs |");
console.log("|---|---|---:|---:|");
let worst = { cpu: 0, what: "" };
for (const { what, data } of pathologicalInputs()) {
  let best = { cpu: Infinity, engine: 0, verdict: "" };
  for (let i = 0; i < 5; i++) {
    const before = process.cpuUsage();
    const v = cold.inspect(data);
    const used = process.cpuUsage(before);
    const cpu = used.user + used.system;
    const verdict = v.overLimit ? "413 (over the limits)" : v.blocked ? `403 (${v.rule})` : "passed";
    if (cpu < best.cpu) best = { cpu, engine: v.micros, verdict: verdict + (v.overrun ? ", overrun" : "") };
  }
  if (best.cpu > worst.cpu) worst = { cpu: best.cpu, what };
  console.log(
    `| ${what.replace(/\|/g, "\\|")} | ${best.verdict} | ${best.cpu.toFixed(0)} | ${best.engine.toFixed(0)} |`,
  );
}
console.log(
  `\nWorst: ${worst.cpu.toFixed(0)} µs (${worst.what}); budget overruns ${cold.stats.overruns}, engine truncations ${cold.stats.engineTruncations}.`,
);
