/**
 * The fake CMS Marketplace API (mocks/cms-api/index.ts) in a process of its
 * own, for `npm run bench`:
 *
 *   node --import tsx scripts/bench-upstream.ts --data DIR --key KEY
 *
 * prints one line `upstream listening on <base url>` and serves until SIGTERM.
 *
 * The benchmark runs the upstream outside the server process because in
 * production it is an outside system: its memory and CPU are not the
 * service's, and the server's RSS must be measured without it. DIR is the
 * trimmed source directory scripts/bench-data.ts writes (the benchmark
 * county's state and the benchmark drugs): the fake reads every file it is
 * given into memory, and the whole national data set would not fit.
 */
import { startFakeUpstream } from "../mocks/cms-api/index";

function argument(name: string): string {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  if (!value) {
    console.error(`usage: node --import tsx scripts/bench-upstream.ts --data DIR --key KEY (missing ${name})`);
    process.exit(2);
  }
  return value;
}

const fake = await startFakeUpstream({ dataDir: argument("--data"), apiKey: argument("--key") });
console.log(`upstream listening on ${fake.url}`);

const stop = () => {
  void fake.close().finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
