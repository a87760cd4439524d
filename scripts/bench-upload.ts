/**
 * npm run bench:upload -- [--rounds N]
 *
 * What a PDF upload costs the server's event loop (decision 507), and what /api/health answers
 * meanwhile. Starts the built server as `npm start` does, uploads each Debian documentation PDF
 * found on the machine one at a time (the first round discarded), reading the main thread's CPU
 * before and after each answer; then sends four uploads of the largest at once while asking
 * /api/health every 20 ms. Prints the figures; copy them, with the date, commit and machine, into
 * docs/benchmarks.md. To compare with an earlier commit, run this script in a worktree of it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { loopCpuMs } from "../tests/helpers/loop-cpu";
import { REPO_ROOT, startServer, TEST_PLAN_STORE } from "../tests/helpers/server";

const args = process.argv.slice(2);
const roundsArg = args.indexOf("--rounds");
const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 5;
if (!Number.isInteger(rounds) || rounds < 2) throw new Error("--rounds must be an integer of at least 2");
if (!existsSync(path.join(REPO_ROOT, "build", "server.js"))) throw new Error("no build: run `npm run build` first");
const planStore = existsSync(TEST_PLAN_STORE) ? TEST_PLAN_STORE : path.join(REPO_ROOT, "data", "plan-store.sqlite");

const DOCS = [
  "/usr/share/doc/camlidl/camlidl-1.04.doc.pdf",
  "/usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz",
  "/usr/share/doc/valgrind/valgrind_manual.pdf.gz",
  "/usr/share/doc/nettle-dev/nettle.pdf.gz",
];
const pdfs = DOCS.filter((file) => existsSync(file)).map((file) => {
  const raw = readFileSync(file);
  return { name: path.basename(file).replace(/\.gz$/, ""), bytes: file.endsWith(".gz") ? gunzipSync(raw) : raw };
});
if (!pdfs.length) throw new Error("no Debian documentation PDFs: run scripts/ensure-test-documents.sh");

/**
 * A scanned form as a scanner writes it: one page holding one image stream, 9.5 MB (under the
 * 10 MB limit). Its bytes are pseudo-random from a fixed seed, so every run sends the same file.
 * The Debian PDFs are at most 1.4 MB; what an upload costs the event loop grows with its bytes.
 */
function scannedPdf(bytes: number): (typeof pdfs)[number]["bytes"] {
  const image = Buffer.alloc(bytes);
  let seed = 20261128;
  for (let i = 0; i < bytes; i += 4) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    image.writeUInt32LE(seed, Math.min(i, bytes - 4));
  }
  const objects = [
    Buffer.from("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"),
    Buffer.from("2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"),
    Buffer.from(
      "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 1008] /Resources << /XObject << /Im0 4 0 R >> >> >>\nendobj\n",
    ),
    Buffer.concat([
      Buffer.from(
        `4 0 obj\n<< /Type /XObject /Subtype /Image /Width 2550 /Height 4200 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${bytes} >>\nstream\n`,
      ),
      image,
      Buffer.from("\nendstream\nendobj\n"),
    ]),
  ];
  const header = Buffer.from("%PDF-1.7\n");
  let offset = header.length;
  const offsets = objects.map((o) => {
    const at = offset;
    offset += o.length;
    return at;
  });
  const xref = `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  return Buffer.concat([
    header,
    ...objects,
    Buffer.from(`${xref}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`),
  ]);
}
pdfs.push({ name: "scan-9.5MB.pdf (synthetic)", bytes: scannedPdf(9.5 * 1024 * 1024) });

const startScript = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts.start!;
const nodeArgs = startScript.split(/\s+/).filter((word) => word.startsWith("--"));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function upload(url: string, bytes: Buffer, name: string, n: number): Promise<number> {
  const form = new FormData();
  form.append("docType", "other");
  form.append("blankConfirmed", "true");
  form.append("file", new File([new Uint8Array(bytes)], name, { type: "application/pdf" }));
  return fetch(`${url}/api/agents/discovery/upload`, {
    method: "POST",
    body: form,
    headers: { "x-forwarded-for": `203.0.113.${(n % 250) + 1}` },
  }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });
}

const server = await startServer({ nodeArgs, env: { PLAN_STORE_PATH: planStore, RATE_LIMIT_MAX: "1000000" } });
const pid = server.process.pid!;
const rows: string[] = [];
let health: number[] = [];
let n = 0;
try {
  for (const pdf of pdfs) {
    const loop: number[] = [];
    const wall: number[] = [];
    let status = 0;
    for (let round = 0; round < rounds; round++) {
      const cpu = loopCpuMs(pid);
      const started = performance.now();
      status = await upload(server.url, pdf.bytes, pdf.name, n++);
      if (round === 0) continue;
      loop.push(loopCpuMs(pid) - cpu);
      wall.push(performance.now() - started);
    }
    rows.push(
      `| ${pdf.name} | ${(pdf.bytes.length / 1024).toFixed(0)} KB | ${status} | ${median(loop).toFixed(0)} | ${Math.max(...loop).toFixed(0)} | ${median(wall).toFixed(0)} |`,
    );
  }
  // Four uploads of the largest Debian PDF at once, /api/health asked every 20 ms meanwhile.
  const largest = pdfs
    .filter((pdf) => !pdf.name.includes("synthetic"))
    .reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a));
  let done = false;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${server.url}/api/health`).then((res) => res.arrayBuffer());
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await Promise.all(Array.from({ length: 4 }, () => upload(server.url, largest.bytes, largest.name, n++)));
  done = true;
  await probe;
  health = health.sort((a, b) => a - b);
} finally {
  await server.stop();
}
const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: REPO_ROOT }).toString().trim();
console.log(
  `bench:upload ${new Date().toISOString()} commit ${commit}, ${os.cpus()[0]?.model ?? "?"} × ${os.cpus().length}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${rounds - 1} measured rounds`,
);
console.log("| PDF | Size | Status | Loop CPU median (ms) | Loop CPU worst (ms) | Wall median (ms) |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
const p = (q: number) => health[Math.min(health.length - 1, Math.floor(q * health.length))]!;
console.log(
  `summary: /api/health during 4 concurrent uploads: ${health.length} answers, median ${p(0.5).toFixed(0)} ms, p99 ${p(0.99).toFixed(0)} ms, worst ${health[health.length - 1]!.toFixed(0)} ms`,
);
