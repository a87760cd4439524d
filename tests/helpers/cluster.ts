import { readFileSync } from "node:fs";

/**
 * The worker processes under a WORKERS > 1 primary (server/cluster.ts): "serving" ones listen,
 * the "standby" has started up and listens only when promoted (docs/decisions/371). Linux only
 * (/proc), as the cluster tests are.
 */
export function workerPids(primary: number, role?: "serving" | "standby"): number[] {
  let pids: number[];
  try {
    pids = readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  if (!role) return pids;
  return pids.filter((pid) => (isStandby(pid) ? "standby" : "serving") === role);
}

/** Started as the standby (it may have been promoted since: then it logged "listening"). */
function isStandby(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes("MARKETPLACE_WORKER_STANDBY=1");
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
