// The upload's PDF disarming in a worker thread (decision 507): <BUILD_DIR>/upload-safe.js,
// built by `npm run build` (scripts/build-server.mjs) and started by upload-safe.server.ts.
import { parentPort } from "node:worker_threads";
import { makeUploadSafe, RefusedUpload } from "./upload-content.server";
import type { UploadSafeAnswer, UploadSafeRequest } from "./upload-safe.server";

// pdf-lib warns on the console about every object it skips: the outcome is what matters.
console.warn = () => undefined;

parentPort?.on("message", async ({ id, bytes }: UploadSafeRequest) => {
  let answer: UploadSafeAnswer;
  try {
    const safe = await makeUploadSafe(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    answer = { id, safe };
  } catch (error) {
    answer =
      error instanceof RefusedUpload
        ? { id, refused: { reason: error.reason, kind: error.kind } }
        : { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
