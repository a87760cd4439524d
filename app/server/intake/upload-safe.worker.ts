// The upload's PDF disarming in a worker thread (decision 507): <BUILD_DIR>/upload-safe.js,
// built by `npm run build` (scripts/build-server.mjs) and started by upload-safe.server.ts.
import { parentPort } from "node:worker_threads";
import { createHash } from "node:crypto";
import { makeUploadSafe, RefusedUpload } from "./upload-content.server";
import type { UploadSafeAnswer, UploadSafeRequest } from "./upload-safe.server";

// pdf-lib warns on the console about every object it skips: the outcome is what matters.
console.warn = () => undefined;

parentPort?.on("message", async ({ id, bytes }: UploadSafeRequest) => {
  let answer: UploadSafeAnswer;
  try {
    const safe = await makeUploadSafe(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    // Hashed here, not on the event loop (9 ms for 10 MB), and handed back without a copy when the
    // bytes are a buffer of their own (this thread needs them no more).
    answer = { id, safe: { ...safe, sha256: createHash("sha256").update(safe.bytes).digest("hex") } };
    const owned = safe.bytes.byteOffset === 0 && safe.bytes.byteLength === safe.bytes.buffer.byteLength;
    if (owned && safe.bytes.buffer instanceof ArrayBuffer) {
      parentPort?.postMessage(answer, [safe.bytes.buffer]);
      return;
    }
  } catch (error) {
    answer =
      error instanceof RefusedUpload
        ? { id, refused: { reason: error.reason, kind: error.kind } }
        : { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
