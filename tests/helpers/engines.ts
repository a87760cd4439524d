import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * Real PostgreSQL 15 and Redis 7 (Debian's packages, installed by
 * scripts/ensure-engines.sh) for the tests: each call starts a throw-away
 * instance on a free loopback port with its data in a temporary directory,
 * and `stop()` removes it. PostgreSQL refuses to run as root, so when the
 * tests run as root its binaries run as the `postgres` user.
 */

export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
export const REDIS_SERVER = process.env.REDIS_SERVER ?? "redis-server";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Run a PostgreSQL binary, as the postgres user when we are root. */
function pgCommand(binary: string, args: string[]): void {
  const file = path.join(PG_BIN, binary);
  if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", file, ...args], { stdio: "pipe" });
  else execFileSync(file, args, { stdio: "pipe" });
}

export interface RunningPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A fresh, empty database on this server; resolves to its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Run SQL against a database (default the `postgres` one); rows with bigint as numbers. */
  query<T = Record<string, unknown>>(url: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** Stop the server as an outage would (connections cut at once), keeping its data and port. */
  halt(): Promise<void>;
  /** Start it again after halt(), on the same port with the same data; resolves once it accepts connections. */
  resume(): Promise<void>;
  /**
   * Freeze the server (SIGSTOP to the postmaster and every backend), as a hung host or a network
   * partition looks: connections stay open and new ones are accepted by the kernel, but nothing answers.
   */
  freeze(): void;
  /** Let it run again after freeze() (SIGCONT). */
  thaw(): void;
  /**
   * Freeze only the backends of the connections open now (SIGSTOP): those never answer again
   * (until thaw()), while new connections are served, as after a failover to a new host.
   */
  freezeConnections(): number;
  stop(): Promise<void>;
}

let databases = 0;

/** The pid of the postmaster of the cluster in `data`. */
function postmasterPid(data: string): number {
  return Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
}

/** The processes the postmaster started, with their titles (a client backend's names its address). */
function postmasterChildren(postmaster: number): Array<{ pid: number; title: string }> {
  let listing = "";
  try {
    listing = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(postmaster)], { encoding: "utf8" });
  } catch {
    // ps exits 1 when there are none
  }
  return listing
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), title: m[2]! }));
}

/** The postmaster's children that serve a client connection. */
function clientBackends(data: string): number[] {
  return postmasterChildren(postmasterPid(data))
    .filter((child) => /127\.0\.0\.1\(\d+\)/.test(child.title))
    .map((child) => child.pid);
}

/** Signal the postmaster of the cluster in `data` and every process it started. */
function signalServer(data: string, signal: NodeJS.Signals): void {
  const postmaster = postmasterPid(data);
  // The postmaster first: once it is stopped it starts no new backend, so the list below is complete.
  process.kill(postmaster, signal);
  for (const { pid } of postmasterChildren(postmaster)) {
    try {
      process.kill(pid, signal);
    } catch {
      // a backend that ended meanwhile
    }
  }
}

export async function startPostgres(): Promise<RunningPostgres> {
  if (!existsSync(path.join(PG_BIN, "initdb")))
    throw new Error(`PostgreSQL 15 not found in ${PG_BIN}: run scripts/ensure-engines.sh`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-test-"));
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  chmodSync(dir, 0o755);
  const data = path.join(dir, "data");
  const port = await freePort();
  // No fsync tuning: the tests check commit-before-acknowledge on the real settings.
  pgCommand("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-instructions"]);
  const startServer = () =>
    pgCommand("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(dir, "server.log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300`,
      "-w",
      "-t",
      "60",
      "start",
    ]);
  startServer();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const query = async <T>(target: string, sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({
      connectionString: target,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === 20 ? Number : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
      },
    });
    // A client without an 'error' listener crashes the process when its server goes away.
    client.on("error", () => undefined);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    url,
    port,
    async createDatabase(name = `test_${process.pid}_${++databases}`) {
      await query(url, `CREATE DATABASE "${name}"`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    query,
    async halt() {
      // "fast": every session is terminated (as a crash or an operator's stop would), nothing waits.
      pgCommand("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    },
    async resume() {
      startServer();
    },
    freeze() {
      signalServer(data, "SIGSTOP");
    },
    thaw() {
      signalServer(data, "SIGCONT");
    },
    freezeConnections() {
      const backends = clientBackends(data);
      for (const pid of backends) process.kill(pid, "SIGSTOP");
      return backends.length;
    },
    async stop() {
      try {
        pgCommand("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface RunningRedis {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Stop the server (the data goes with it). */
  stop(): Promise<void>;
  /** Start it again on the same port (after stop()). */
  restart(): Promise<void>;
  /** Freeze it (SIGSTOP): connections stay open, nothing answers, as a hung host looks. */
  freeze(): void;
  /** Let it run again after freeze() (SIGCONT). */
  thaw(): void;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn(
      REDIS_SERVER,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = proc;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      proc.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.on("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`redis-server could not start (${error.message}): run scripts/ensure-engines.sh`));
      });
      proc.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  };
  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.on("exit", resolve));
    proc.kill("SIGKILL");
    await exited;
  };
  await start();
  const signal = (name: NodeJS.Signals) => (child as ChildProcess | null)?.kill(name);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: start,
    freeze: () => void signal("SIGSTOP"),
    thaw: () => void signal("SIGCONT"),
  };
}
