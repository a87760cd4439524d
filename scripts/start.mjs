// `npm start` (the compiled build/server.js) and `npm run dev` (server.ts through tsx, with
// --dev): on a development machine with no upstream key configured, ask for the sample CMS
// API fake (UPSTREAM=fake; the server says so in its log). Never with DEPLOY_ENV=production,
// where the server refuses to start without a key instead (docs/decisions/150).
//
// The server runs in this process: the node options of `npm start` apply to it.
import path from "node:path";
import { pathToFileURL } from "node:url";

// As sanitizeSecret (app/server/platform/env.server.ts): whitespace and a trailing literal "\n"
// copied from a secret store do not make a key.
const key = (process.env.MARKETPLACE_API_KEY ?? "").trim().replace(/(\\n\s*)+$/, "");
const production = (process.env.DEPLOY_ENV ?? "").trim().toLowerCase() === "production";
if (!key && !production && !(process.env.UPSTREAM ?? "").trim()) process.env.UPSTREAM = "fake";

const dev = process.argv.includes("--dev");
const entry = dev ? path.resolve("server.ts") : path.resolve(process.env.BUILD_DIR ?? "build", "server.js");
await import(pathToFileURL(entry).href);
