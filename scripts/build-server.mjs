// `npm run build`, last step: server.ts and what it imports from app/ compiled into one
// JavaScript file next to the Remix build (<BUILD_DIR>/server.js), so that `npm start` runs
// plain JavaScript. Loading the app through tsx's module hooks took ~450 ms of a ~900 ms
// start (docs/decisions/126-compiled-server-entry.md). Packages stay imports of node_modules.
import { build } from "esbuild";

const buildDir = process.env.BUILD_DIR ?? "build";
await build({
  entryPoints: ["server.ts"],
  outfile: `${buildDir}/server.js`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
