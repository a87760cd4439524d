/**
 * `npm run bench:hostile-search [searches]`: plan searches at once against a stand-in upstream
 * that says "500 plans" and sends pages of 10 plans of 89 KB (each page under its 1 MiB cap), in
 * `npm start`'s heap. Prints the peak heap and RSS and each search's outcome (decision 528: the
 * pages of one search share an 8 MiB budget, so each ends `too_large`).
 */
import http from "node:http";
const n = Number(process.argv[2] ?? 1);
const plan = {
  id: "",
  name: "Hostile Silver",
  issuer: { id: "99999", name: "Hostile" },
  metal_level: "Silver",
  type: "HMO",
  premium: 400,
  premium_w_credit: 150,
  ehb_premium: 390,
  deductibles: [],
  moops: [],
  benefits: [],
  hsa_eligible: false,
  market: "Individual",
};
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const { offset } = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { offset: number };
    const plans = Array.from({ length: 10 }, (_, i) => ({
      ...plan,
      id: `99999ZZ${String(offset + i).padStart(7, "0")}`,
      note: "x".repeat(89_000),
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ plans, total: 500, facet_groups: [], ranges: {} }));
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as { port: number }).port;
Object.assign(process.env, {
  LOG_LEVEL: "silent",
  MARKETPLACE_API_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
  MARKETPLACE_API_KEY: "abcdefghijklmnopqrstuvwxyz",
  UPSTREAM_CALLS_PER_SECOND: "10000",
  UPSTREAM_CALLS_PER_MINUTE: "100000",
});
// Imported once the environment names the stand-in.
const { searchPlans } = await import("../app/server/upstream/client.server");
let peakRss = 0,
  peakHeap = 0;
const sample = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 5);
const t0 = performance.now();
const outcomes = await Promise.all(
  Array.from({ length: n }, (_, k) =>
    searchPlans({
      place: { countyfips: "99999", state: "ZZ", zipcode: String(10000 + k) },
      household: { income: 30000 + k, people: [{ age: 40, aptc_eligible: true }] },
    }).then(
      (r: { plans: unknown[] }) => `${r.plans.length} plans`,
      (e: { reason?: string }) => e.reason ?? String(e),
    ),
  ),
);
const ms = performance.now() - t0;
clearInterval(sample);
const counts: Record<string, number> = {};
for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
console.log(
  JSON.stringify({
    searches: n,
    ms: Math.round(ms),
    peakRssMB: Math.round(peakRss / 1048576),
    peakHeapMB: Math.round(peakHeap / 1048576),
    outcomes: counts,
  }),
);
server.close();
process.exit(0);
