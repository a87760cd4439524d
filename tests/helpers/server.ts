import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./engines";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The plan store built from seed/sample by tests/global-setup.ts. */
export const TEST_PLAN_STORE = path.join(REPO_ROOT, "data", "test", "plan-store.sqlite");

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (stdout + stderr). */
  output(): string;
  /** SIGTERM and wait for exit; resolves to the exit code. */
  stop(): Promise<number | null>;
  /** Send a signal and wait for exit. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stop reading the server's output pipes (a log collector that stalls): they fill, and its writes wait. */
  stopReadingOutput(): void;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Milliseconds to wait for the "listening" line. */
  timeoutMs?: number;
  /** Node options before the script, e.g. `npm start`'s heap settings for a benchmark. */
  nodeArgs?: string[];
  /**
   * The largest file the server may write, in KiB (the shell's `ulimit -f`, RLIMIT_FSIZE): a write
   * past it fails with EFBIG, as one on a full disk fails with ENOSPC (Node ignores SIGXFSZ). The soft
   * limit only, so that a test may lift it from outside (`prlimit --pid <pid> --fsize=unlimited`),
   * as an operator frees room.
   */
  fileSizeLimitKiB?: number;
  /**
   * Append the server's standard output and error to this file instead of a pipe (as `npm start >>
   * app.log` does). output() is then empty: the port is chosen up front and the server is ready
   * when /api/health answers.
   */
  outputFile?: string;
}

/**
 * Start the production server (server.ts over the built app) on a random
 * loopback port, exactly as `npm start` does, and wait until it listens.
 * Each call gets its own write store unless DATABASE_URL is given.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "marketplace-server-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    DEPLOY_ENV: "test",
    PLAN_STORE_PATH: TEST_PLAN_STORE,
    DATABASE_URL: `file:${path.join(scratch, "app.db")}`,
    UPLOAD_LOCAL_DIR: path.join(scratch, "uploads"),
    UNSUBSCRIBE_TOKEN_SECRET: "test-unsubscribe-secret-0123456789",
    // No real email provider in tests unless a test points one at a fake.
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: "http://127.0.0.1:9/unreachable",
  };
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  // As `npm start` runs it: scripts/start.mjs (which asks for the sample fake, UPSTREAM=fake, when no
  // key is given) over the compiled server.ts that `npm run build` writes next to the app build.
  const command = [process.execPath, ...(options.nodeArgs ?? []), path.join(REPO_ROOT, "scripts", "start.mjs")];
  if (options.outputFile) env.PORT = String(await freePort());
  const limit =
    options.fileSizeLimitKiB === undefined ? "" : `ulimit -S -f ${Math.floor(options.fileSizeLimitKiB)} && `;
  const redirect = options.outputFile ? ` >> "$OUTPUT_FILE" 2>&1` : "";
  if (options.outputFile) env.OUTPUT_FILE = options.outputFile;
  const limited = limit || redirect ? ["/bin/bash", "-c", `${limit}exec "$0" "$@"${redirect}`, ...command] : command;
  const child = spawn(limited[0]!, limited.slice(1), {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within ${options.timeoutMs ?? 20_000} ms:\n${output}`)),
      options.timeoutMs ?? 20_000,
    );
    const check = () => {
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", check);
    if (options.outputFile) {
      const port = Number(env.PORT);
      const poll = () =>
        fetch(`http://127.0.0.1:${port}/api/health`).then(
          () => {
            clearTimeout(timer);
            resolve(port);
          },
          () => {
            if (child.exitCode === null) setTimeout(poll, 100);
          },
        );
      poll();
    }
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });

  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill(signal);
    return exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => output,
    stop: () => kill("SIGTERM"),
    kill,
    stopReadingOutput: () => {
      child.stdout!.pause();
      child.stderr!.pause();
    },
  };
}
