import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/**
 * CPU time a process's main thread (its event loop) has used, in ms, read
 * from Linux's /proc: it tells a blocked event loop from a busy machine,
 * which wall time alone cannot (docs/decisions/283). schedstat counts in
 * nanoseconds; stat's clock ticks (10 ms) are the fallback when the kernel
 * keeps no scheduler statistics.
 */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

export function loopCpuMs(pid: number): number {
  const schedstat = `/proc/${pid}/task/${pid}/schedstat`;
  if (existsSync(schedstat)) {
    const runNanos = Number(readFileSync(schedstat, "utf8").split(" ")[0]);
    if (runNanos > 0) return runNanos / 1e6;
  }
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  // Fields after "(comm)": state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / CLOCK_TICKS;
}
