// `npm run firewall:measure`: the firewall's detection and false-positive tables on the corpora in
// tests/fixtures/firewall (issue 18 item 4), printed as Markdown for docs/firewall.md. Runs the
// engine as production does (the same rules and time budget, in-process, no HTTP).
import os from "node:os";
import { FIREWALL_BUDGET_MICROS, FirewallEngine } from "../server/firewall/engine.ts";
import { FAMILIES } from "../tests/fixtures/firewall/corpus.ts";
import { FREE_TEXT_LOCATIONS, LOCATIONS, measure } from "../tests/fixtures/firewall/measure.ts";
import { pathologicalInputs } from "../tests/fixtures/firewall/pathological.ts";

// Nothing remembered between requests (docs/decisions/282): the times below are the engine's own.
const engine = new FirewallEngine(undefined, FIREWALL_BUDGET_MICROS, false);
const m = await measure(engine);
const pct = (blocked: number, tested: number, digits = 1) =>
  `${((100 * blocked) / tested).toFixed(digits)} % (${blocked}/${tested})`;
const all = [...LOCATIONS, ...FREE_TEXT_LOCATIONS];

console.log(
  `Rules: recommended set ${m.rulesVersion} and service rules, ${m.ruleCount} in all; budget ${engine.budgetMicros} µs.`,
);
console.log(`Machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}.\n`);
console.log("Attack strings blocked, by family and location:\n");
console.log(`| Family | ${all.join(" | ")} |`);
console.log(`|---|${all.map(() => "---").join("|")}|`);
for (const family of FAMILIES)
  console.log(`| ${family} | ${all.map((l) => pct(...m.detection[family][l])).join(" | ")} |`);
console.log("\nBenign strings blocked (false positives), every string in every location:\n");
console.log(`| Location | Blocked | Strings blocked |`);
console.log(`|---|---|---|`);
for (const l of all) {
  const f = m.falsePositives[l];
  console.log(`| ${l} | ${pct(f.blocked, f.tested, 2)} | ${f.examples.map((e) => `\`${e}\``).join(", ")} |`);
}
console.log(
  "\nBenign strings blocked where they are typed (searches, names, addresses, plans, drugs, ids in structured fields):\n",
);
console.log(`| Location | Blocked | Strings blocked |`);
console.log(`|---|---|---|`);
for (const l of LOCATIONS) {
  const f = m.placed[l];
  console.log(`| ${l} | ${pct(f.blocked, f.tested, 2)} | ${f.examples.map((e) => `\`${e}\``).join(", ")} |`);
}
console.log(
  `\nFirewall time per benign request: CPU p50 ${m.micros.p50} µs, p99 ${m.micros.p99} µs, max ${m.micros.max} µs; ` +
    `engine wall clock p50 ${m.wallMicros.p50.toFixed(0)} µs, p99 ${m.wallMicros.p99.toFixed(0)} µs; budget overruns ${m.overruns}.`,
);

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
