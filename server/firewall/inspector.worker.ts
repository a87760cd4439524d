/**
 * The firewall's rules run off the event loop (./inspector.ts): a worker thread with an engine of
 * its own, handed what a large request's prepare step left to read. It remembers no parts (the
 * server's engine does, when it settles the verdict). Compiled to <BUILD_DIR>/firewall-inspector.js
 * (scripts/build-server.mjs).
 */
import { parentPort } from "node:worker_threads";
import { FirewallEngine, OFF_LOOP_BUDGET_MICROS } from "./engine";
import type { InspectionRequest, InspectionAnswer } from "./inspector";

// Its own budget (decision 533): off the event loop, a busy host's slower run is no stall.
const engine = new FirewallEngine(undefined, OFF_LOOP_BUDGET_MICROS, false, true);
parentPort!.on("message", (request: InspectionRequest) => {
  let answer: InspectionAnswer;
  try {
    answer = { id: request.id, verdict: engine.runPending({ ...request, pending: [] }) };
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
