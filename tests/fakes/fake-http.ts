import type { IncomingMessage } from "node:http";
import { gunzipSync } from "node:zlib";

// Small helpers the local stand-ins for outside services (Resend, SES, PostHog) share.

/** Read a request body (gunzipped when Content-Encoding says gzip). */
export async function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return /gzip/i.test(String(req.headers["content-encoding"] ?? "")) ? gunzipSync(raw) : raw;
}

/** Poll until `check` returns a truthy value, or fail after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => T | null | Promise<T | null>,
  timeoutMs = 5_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
