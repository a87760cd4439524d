// `npm run firewall:measure`: the firewall's detection and false-positive tables on the corpora in
// tests/fixtures/firewall (issue 18 item 4), printed as Markdown for docs/firewall.md. Runs the
// engine as production does (the same rules and time budget, in-process, no HTTP).
import os from "node:os";
import { FirewallEngine } from "../server/firewall/engine.ts";
import { FAMILIES } from "../tests/fixtures/firewall/corpus.ts";
import { FREE_TEXT_LOCATIONS, LOCATIONS, measure } from "../tests/fixtures/firewall/measure.ts";

const engine = new FirewallEngine();
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
