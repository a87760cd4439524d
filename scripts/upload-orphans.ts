// `npm run uploads:orphans`: the stored upload files no row names (docs/decisions/510), in the
// storage and write store the environment names (UPLOAD_BUCKET or UPLOAD_LOCAL_DIR, DATABASE_URL).
// Lists them; `-- --remove` removes them; `-- --older-than-hours N` (default 24) leaves younger
// files alone; `-- --force` removes even when most files have no row (a swapped store looks so).
// Prints JSON; exits 1 when asked to remove and something was left.
import { DEFAULT_MIN_AGE_MS, sweepOrphanUploads } from "../app/server/intake/upload-orphans.server.ts";
import { closeAll } from "../app/server/platform/lifecycle.server.ts";

const args = process.argv.slice(2);
const hoursAt = args.indexOf("--older-than-hours");
const hours = hoursAt >= 0 ? Number(args[hoursAt + 1]) : DEFAULT_MIN_AGE_MS / 3_600_000;
if (!Number.isFinite(hours) || hours < 0) {
  console.error("--older-than-hours needs a number of hours, 0 or more");
  process.exit(2);
}
const remove = args.includes("--remove");
const sweep = await sweepOrphanUploads({ remove, force: args.includes("--force"), minAgeMs: hours * 3_600_000 });
console.log(JSON.stringify({ olderThanHours: hours, ...sweep }, null, 2));
await closeAll();
process.exit(remove && (sweep.refused || sweep.removed.length < sweep.orphans.length) ? 1 : 0);
