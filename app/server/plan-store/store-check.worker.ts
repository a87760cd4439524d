/**
 * The checks of a downloaded plan store (./store-check.server.ts), run in a
 * worker thread by ./store-sync.server.ts: on a national store they read
 * every table for many seconds, which must not stall the requests the
 * process is serving meanwhile. Compiled to <BUILD_DIR>/plan-store-check.js
 * (scripts/build-server.mjs).
 */
import { parentPort, workerData } from "node:worker_threads";
import { checkStoreFile, type StoreCheckOptions } from "./store-check.server";

const { file, options } = workerData as { file: string; options: StoreCheckOptions };
parentPort!.postMessage(checkStoreFile(file, options));
