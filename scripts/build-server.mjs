// `npm run build`, last step: server.ts and what it imports from app/ and server/ compiled into one
// JavaScript file next to the Remix build (<BUILD_DIR>/server.js), so that `npm start` runs
// plain JavaScript. Loading the app through tsx's module hooks took ~450 ms of a ~900 ms
// start (docs/decisions/126-compiled-server-entry.md). Packages stay imports of node_modules.
//
// The sample CMS API fake (mocks/cms-api) is compiled into a file of its own,
// <BUILD_DIR>/mocks/cms-api.js, which server.js loads only with UPSTREAM=fake: the production
// bundle carries no code from mocks/ or tests/ (docs/decisions/150).
import { readdirSync, rmSync } from "node:fs";
import { build } from "esbuild";

const buildDir = process.env.BUILD_DIR ?? "build";
const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
};
// The split files of an earlier build (their names carry a hash) go first.
for (const name of readdirSync(buildDir, { withFileTypes: false }).filter((n) => /^server-.+\.js$/.test(n)))
  rmSync(`${buildDir}/${name}`);
await Promise.all([
  // Split: a module server.ts reaches only through import() (the PostgreSQL write store) is a file
  // of its own, loaded when first asked for, with the packages it imports (docs/decisions/460).
  // Its files sit beside server.js (server-*.js), so import.meta.url finds what it found before.
  build({
    ...common,
    entryPoints: { server: "server.ts" },
    outdir: buildDir,
    splitting: true,
    chunkNames: "server-[name]-[hash]",
  }),
  build({ ...common, entryPoints: ["mocks/cms-api/index.ts"], outfile: `${buildDir}/mocks/cms-api.js` }),
  // The firewall's rules for large requests, run in a worker thread (server/firewall/inspector.ts).
  build({
    ...common,
    entryPoints: ["server/firewall/inspector.worker.ts"],
    outfile: `${buildDir}/firewall-inspector.js`,
  }),
  // The upload's PDF disarming, run in a worker thread (app/server/intake/upload-safe.server.ts).
  build({
    ...common,
    entryPoints: ["app/server/intake/upload-safe.worker.ts"],
    outfile: `${buildDir}/upload-safe.js`,
  }),
  // The published plan store's checks, run in a worker thread (app/server/plan-store/store-sync.server.ts).
  build({
    ...common,
    entryPoints: ["app/server/plan-store/store-check.worker.ts"],
    outfile: `${buildDir}/plan-store-check.js`,
  }),
]);
