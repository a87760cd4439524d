import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { PrerenderedParts } from "./components/prerendered";
import { RequestLanguage } from "./i18n/language-context";
import { requestLanguage } from "./i18n/language.server";
import { loggableError } from "../db/write-store-errors";

const ABORT_DELAY = 5_000;

export const streamTimeout = ABORT_DELAY;

/** Run by server.ts once it has answered its first request (docs/decisions/461). */
export { deferredStartupChecks } from "./server/platform/deferred-checks.server";
/** The API fast path's plain answers (server/api-fast-path.ts, docs/decisions/462). */
export { plainAnswers } from "./server/platform/plain-answers.server";

/**
 * Server rendering. The document is answered whole once React has rendered
 * all of it (onAllReady), for browsers and bots alike: no route defers data,
 * so the shell is the whole page a few microtasks earlier, and the answer is
 * compressed whole anyway (decision 121). Collecting it here saves a
 * PassThrough and a web stream per page (decision 128). A route that starts
 * deferring slow data would want the document streamed from the shell again.
 * The CSP nonce made by server.ts is handed to every inline script Remix writes;
 * markup the loaders made ahead for this document reaches <Prerendered>.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { cspNonce: nonce = "", prerendered = null } = loadContext as {
    cspNonce?: string;
    prerendered?: Record<string, string>;
  };
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const document = new Writable({
      write(chunk: Uint8Array<ArrayBuffer>, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(abortTimer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        // A page's language follows the cookie and Accept-Language (docs/decisions/230): no cache may mix them up.
        responseHeaders.append("Vary", "Accept-Language, Cookie");
        resolve(
          new Response(chunks.length === 1 ? chunks[0] : (Buffer.concat(chunks) as Uint8Array<ArrayBuffer>), {
            headers: responseHeaders,
            status: responseStatusCode,
          }),
        );
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <PrerenderedParts.Provider value={prerendered}>
          <RequestLanguage.Provider value={requestLanguage(request)}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </RequestLanguage.Provider>
        </PrerenderedParts.Provider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(document);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error in the shell reaches onShellError and Remix's handleError; log only later ones.
          if (shellRendered) console.error(error);
        },
      },
    );
    // A render still waiting after ABORT_DELAY is cut short (its fallbacks are sent); cleared once the document is whole.
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A 404 or other refusal thrown as a response is the visitor's, not a fault: the request log
  // has its status (it was logged as "route error [object Object]" for every unknown address).
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Never a failed query's parameters or a submitted address (issue 30): loggableError.
  console.error("route error", loggableError(error));
}
