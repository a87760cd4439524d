import { readFileSync } from "node:fs";
import { env } from "./env.server";
import { processSingleton } from "./lifecycle.server";

/** The build revision: COMMIT_SHA, else the one recorded at build time. */
export function buildRevision(): string {
  return processSingleton("build-revision", () => {
    const fromEnv = env().COMMIT_SHA;
    if (fromEnv) return fromEnv;
    try {
      const info = JSON.parse(readFileSync(`${process.env.BUILD_DIR ?? "build"}/info.json`, "utf8")) as {
        commit?: unknown;
      };
      if (typeof info.commit === "string" && info.commit.trim() && info.commit !== "undefined") return info.commit;
    } catch {
      // no recorded build info (unit tests run from source)
    }
    return "unknown-revision";
  });
}
