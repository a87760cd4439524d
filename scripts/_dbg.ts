import { createRequire } from "node:module";
import { buildRuleSet } from "../server/firewall/ruleset.ts";
import { collect, mergeParts } from "../server/firewall/request-data.ts";
import { pathologicalInputs } from "../tests/fixtures/firewall/pathological.ts";
const { DDWAF } = createRequire(import.meta.url)("@datadog/native-appsec");
const waf = new DDWAF(buildRuleSet().config, "x");
for (const { what, data } of pathologicalInputs()) {
  const c = collect(data); if (c.overLimit) continue;
  const input = mergeParts(c.parts);
  const ctx = waf.createContext(); const r = ctx.run({ ephemeral: input }, 1e7); ctx.dispose();
  if (r.metrics && Object.keys(r.metrics).length || /quote|nested/.test(what)) console.log(what, JSON.stringify(r.metrics), JSON.stringify(input).slice(0, 300), JSON.stringify(input).length);
}
