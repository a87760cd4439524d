// Before `npm start`: build the app if there is no build yet, and load the
// bundled sample data if there is no plan store yet, so that a fresh checkout
// starts with one command.
import { existsSync } from "node:fs";
import { execSync } from "node:child_process";

const buildDir = process.env.BUILD_DIR ?? "build";
const store = process.env.PLAN_STORE_PATH ?? "data/plan-store.sqlite";
if (!existsSync(`${buildDir}/server/index.js`) || !existsSync(`${buildDir}/server.js`)) {
  console.log("No build yet: running `npm run build`.");
  execSync("npm run build", { stdio: "inherit" });
}
if (!existsSync(store)) {
  console.log(`No plan store at ${store}: loading the bundled sample data (made-up plans, real counties).`);
  execSync(`npx tsx seed/cli.ts --source seed/sample --out "${store}"`, { stdio: "inherit" });
}
