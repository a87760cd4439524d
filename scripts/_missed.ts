import { FirewallEngine } from "../server/firewall/engine.ts";
import { measure } from "../tests/fixtures/firewall/measure.ts";
const m = await measure(new FirewallEngine(undefined, 1e6));
for (const f of ["sqli","xss","cmdi","traversal"] as const) for (const l of ["json","path","header"] as const) console.log(f,l,JSON.stringify(m.missed[f][l]));
