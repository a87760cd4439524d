// Before `npm start`: build the app if there is no build yet, and load the
// bundled sample data if there is no plan store yet, so that a fresh checkout
// starts with one command. Never with DEPLOY_ENV=production: a production start
// must not seed made-up data (the server then refuses to start, naming PLAN_STORE_PATH).
// `--store-only` (before `npm run dev`, which builds nothing) skips the build.
import { existsSync } from "node:fs";
import { execSync } from "node:child_process";

const buildDir = process.env.BUILD_DIR ?? "build";
const store = process.env.PLAN_STORE_PATH ?? "data/plan-store.sqlite";
const production = (process.env.DEPLOY_ENV ?? "").trim().toLowerCase() === "production";
const storeOnly = process.argv.includes("--store-only");
const built = ["server/index.js", "server.js", "mocks/cms-api.js"].every((f) => existsSync(`${buildDir}/${f}`));
if (!storeOnly && !built) {
  console.log("No build yet: running `npm run build`.");
  execSync("npm run build", { stdio: "inherit" });
}
// With PLAN_STORE_URL the server downloads the published store itself before serving (decision 290).
const published = (process.env.PLAN_STORE_URL ?? "").trim() !== "";
if (!existsSync(store) && !production && !published) {
  console.log(`No plan store at ${store}: loading the bundled sample data (made-up plans, real counties).`);
  execSync(`npx tsx seed/cli.ts --source seed/sample --out "${store}"`, { stdio: "inherit" });
}
