/**
 * Express entry point: configuration, security headers, edge protection,
 * compression, static files and the Remix request handler, plus graceful
 * shutdown. `npm run build` compiles it to build/server.js (scripts/build-server.mjs), which `npm start` runs;
 * `npm run dev` runs this file through tsx with Vite in middleware mode (hot reload).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { constants as zlibConstants } from "node:zlib";
import express, { type NextFunction, type Request, type Response } from "express";
import compression from "compression";
import type { ServerBuild } from "@remix-run/node";
import { ConfigurationError, env } from "./app/server/platform/env.server.ts";
import { closeAll, onShutdown } from "./app/server/platform/lifecycle.server.ts";
import { logger } from "./app/server/platform/logger.server.ts";
import { edgeHeaders } from "./server/edge-headers.ts";
import { requestFirewall } from "./server/firewall/index.ts";
import { refusedBody } from "./server/firewall/body.ts";
import { createRateLimiter } from "./server/rate-limit.ts";
import { requestLog } from "./server/request-log.ts";
import { createHttpServer } from "./server/timeouts.ts";
import { startIntakeBackgroundWork } from "./app/server/intake/write-store-handle.server.ts";
import { startRetentionSweep } from "./app/server/intake/retention.server.ts";
import type { ServerTiming } from "./app/server/platform/server-timing.server.ts";
import { compressWholeAnswers } from "./server/compression.ts";
import { remixRequestHandler } from "./server/remix-handler.ts";
import { apiFastPath } from "./server/api-fast-path.ts";
import { keptDocuments, type KeptDocumentMark } from "./server/kept-documents.ts";
import { reportServing, startCluster, whenServing } from "./server/cluster.ts";
import { startupRefusal } from "./server/startup-checks.ts";
import { ensurePublishedStore, startPlanStoreSync } from "./app/server/plan-store/store-sync.server.ts";
import { unappliedPatches } from "./server/patch-check.ts";
import { afterFirstAnswer } from "./server/after-first-answer.ts";
import type { ViteDevServer } from "vite";
// Types only (erased by esbuild): the fake's code is loaded from its own file, below.
import type * as FakeUpstreamModule from "./mocks/cms-api/index.ts";
import type { FakeUpstream } from "./mocks/cms-api/index.ts";

const SHUTDOWN_GRACE_MS = 9_000;
/** `npm run dev` (scripts/start.mjs --dev, under tsx): Vite in middleware mode instead of the build. */
const DEV = process.argv.includes("--dev");
const FAKE_UPSTREAM_KEY = "sample-fake-upstream-key";

async function main(): Promise<void> {
  // Standard output or error redirected to a file on a full disk (EFBIG, ENOSPC): a console line
  // that cannot be written must not end the process (docs/decisions/520). The logger has its own.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
  let config;
  try {
    config = env();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // PLAN_STORE_URL with no local store yet (a fresh instance): download and check the published
  // store before anything is served; with WORKERS > 1 the primary does it once (decision 290).
  const noStore = await ensurePublishedStore(logger());
  if (noStore) {
    console.error(noStore);
    process.exit(1);
  }
  // Settings under which nothing may be served (a production start on made-up data, or no
  // upstream at all): one line naming the setting, then exit (docs/decisions/150).
  const refusal = startupRefusal(config);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  // WORKERS > 1: this process only starts and watches the workers, each of which runs all of main().
  if (startCluster(config, logger())) return;
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  if (config.UPSTREAM === "fake") {
    // Asked for: answer upstream calls from the sample CMS API fake, and say so (pages and
    // /api/health read UPSTREAM_IS_SAMPLE). The fake is not in this bundle: it is built as a file
    // of its own and loaded only here (docs/decisions/150).
    const fake = await startSampleUpstream(buildDir);
    Object.assign(config, {
      MARKETPLACE_API_BASE_URL: fake.url,
      MARKETPLACE_API_KEY: FAKE_UPSTREAM_KEY,
      UPSTREAM_IS_SAMPLE: true,
    });
    onShutdown("sample upstream", () => fake.close());
  }
  const log = logger();
  for (const warning of config.warnings) log.warn({ setting: warning.split(" ")[0] }, warning);
  if (config.UPSTREAM === "fake") {
    log.warn(
      { setting: "UPSTREAM" },
      "UPSTREAM=fake: upstream answers (drugs, doctors, subsidy estimates) come from the sample CMS API fake, not the real Marketplace API.",
    );
  }
  // Follow the published plan store (PLAN_STORE_URL): every process polls its version marker.
  startPlanStoreSync(log);

  const app = express();
  // Slow clients are cut off by header and whole-request timeouts (docs/decisions/053).
  const server: Server = createHttpServer(app);
  // `npm run dev`: the app from its sources through Vite in middleware mode, with hot reload over
  // this server's own socket; otherwise the production build. Everything else below is the same.
  let build: ServerBuild | (() => Promise<ServerBuild>);
  let vite: ViteDevServer | undefined;
  if (DEV) {
    const { createServer } = await import("vite");
    const devServer = await createServer({ server: { middlewareMode: true, hmr: { server } }, appType: "custom" });
    vite = devServer;
    build = () => devServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
    onShutdown("vite", () => devServer.close());
  } else {
    const serverBuildPath = path.join(buildDir, "server", "index.js");
    if (!existsSync(serverBuildPath)) {
      console.error("No production build found: run `npm run build` first.");
      process.exit(1);
    }
    build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  }

  const firewall = requestFirewall({ warmUpLater: true, uploadMemoryBytes: config.UPLOAD_MEMORY_MB * 1024 * 1024 });
  // Start-up work no answer waits for: once the first answer is written, or soon after listening
  // if none is (issue 29, docs/decisions/461).
  void afterFirstAnswer(
    server,
    [
      // Open and migrate the write store and resume sending any email an earlier process left in the
      // outbox. A write arriving first opens the store itself (openWriteStore): nothing is refused.
      { name: "write store", run: () => startIntakeBackgroundWork() },
      // What the privacy page says is kept N days is deleted after N days (decision 523).
      { name: "retention sweep", run: () => startRetentionSweep() },
      // The WAF engine's matchers compiled before visitors need them (a request judged before this
      // is judged in full, compiling what it needs).
      { name: "firewall warm-up", run: () => firewall.engine.warmUp() },
      // Node's web Request and Response (its own undici, ~20 ms to load): the health check's answer
      // needs neither (decision 462), every other route does; and the undici package upstream calls
      // go through (app/server/upstream/transport.server.ts loads it on first use, from the same
      // require cache). Loaded here, not by the first visitor.
      {
        name: "web fetch classes",
        run: () => {
          void globalThis.Response;
          createRequire(import.meta.url)("undici");
        },
      },
      // The server build's checks (the ACA parameter file): a bad file stops the process.
      { name: "server build checks", run: () => deferredChecksOf(build)?.() },
      {
        name: "patch check",
        run: () => {
          for (const { patch, file } of unappliedPatches()) {
            log.warn(
              { patch, file },
              `patch-package patch not applied: ${patch} (${file}); run \`npx patch-package\` (an install with --ignore-scripts skips it). Pages still work, slower.`,
            );
          }
        },
      },
    ],
    (name, error) => {
      // A start-up check failed: the process cannot serve correctly (as when it failed before listening).
      log.fatal({ err: error, task: name }, `start-up work failed: ${name}`);
      log.flush?.();
      process.exit(1);
    },
  );

  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  // Nothing reads req.query (Remix and the firewall read the URL themselves): don't parse every query string with qs.
  app.set("query parser", false);

  // Headers first, so that every answer below carries them, errors included: security headers with
  // a CSP nonce, the request id, and Server-Timing (docs/decisions/116).
  app.use(edgeHeaders(config.POSTHOG_API_KEY ? config.POSTHOG_HOST : undefined));
  app.use(requestLog(log));
  // Vite's own files (the client, modules, dependencies) first: the rate rule would count every
  // module of a page, and they are no route of the app. Anything else falls through.
  if (vite) app.use(vite.middlewares);
  app.use(
    createRateLimiter({
      max: config.RATE_LIMIT_MAX,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      exemptPaths: ["/api/health"],
    }),
  );
  // Active from the first request; its warm-up runs once the first answer is written (below).
  app.use(firewall);
  // Static files stream through `compression` at cheap levels (brotli 1 with a 256 KB window, gzip 1)
  // (docs/decisions/113); every other answer is compressed whole, below (docs/decisions/121).
  const compressFiles = compression({
    level: 1,
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
  });

  // Fingerprinted assets never change under one name: cache them for a year.
  if (!vite) {
    app.use(
      "/assets",
      compressFiles,
      express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y" }),
    );
  }
  // Outside /assets only files with an extension are served (favicon.svg, robots.txt): a page or API
  // path would cost two failed file look-ups on every request (docs/decisions/113).
  // (Under Vite, its middleware has served public/ and the client already.)
  if (!vite) {
    const staticFiles = [
      express.static(path.join(buildDir, "client"), { maxAge: "1h" }),
      express.static("public", { maxAge: "1h" }),
    ];
    app.use((req, res, next) =>
      /\.[A-Za-z0-9]+$/.test(req.path)
        ? compressFiles(req, res, () => staticFiles[0](req, res, () => staticFiles[1](req, res, next)))
        : next(),
    );
  }
  app.use(compressWholeAnswers());
  // The health check, counties and plan list straight to their route modules, past Remix's request
  // handling (decisions 360 and 400).
  if (typeof build !== "function") app.use(apiFastPath(build));
  // A plan page asked for again within a minute: the kept document with this answer's nonce (decision 420).
  if (!DEV) app.use(keptDocuments());

  app.all(
    "*",
    remixRequestHandler({
      build,
      mode: DEV ? "development" : "production",
      getLoadContext: (req, res) => ({
        cspNonce: res.locals.cspNonce as string,
        requestId: res.locals.requestId as string,
        // Loaders add their parts (store, pricing …) to the answer's Server-Timing header.
        serverTiming: res.locals.serverTiming as ServerTiming,
        // Markup loaders made ahead for this document, by part (<Prerendered>, docs/decisions/132).
        prerendered: {} as Record<string, string>,
        // Set by keptDocuments() for a page it may keep; the page's loader says whether it may.
        keptDocument: res.locals.keptDocument as KeptDocumentMark | undefined,
        // Stored with consent and attestation records; honours X-Forwarded-For only with TRUST_PROXY.
        clientIp: req.ip ?? "unknown",
        // A page form whose body was over the firewall's limit (never read): its action says so in place.
        refusedBody: refusedBody(req),
      }),
    }),
  );

  // Last resort: an /api path never gets an HTML error page.
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status =
      typeof (error as { status?: unknown })?.status === "number" ? (error as { status: number }).status : 500;
    // A client's bad request (e.g. a path with broken percent-encoding, which Express cannot
    // decode) is a warning without a stack; only our own failures are errors (docs/decisions/102).
    if (status < 500)
      log.warn({ path: req.path, status, reason: (error as Error | undefined)?.name }, "request could not be read");
    else log.error({ err: error, path: req.path }, "request failed before reaching a route");
    const code =
      status === 400
        ? "bad_request"
        : status === 413
          ? "payload_too_large"
          : status === 415
            ? "unsupported_media_type"
            : status < 500
              ? "bad_request"
              : "internal_error";
    const message =
      status === 415
        ? "Send the form as application/x-www-form-urlencoded or multipart/form-data."
        : status < 500
          ? "The request could not be read."
          : "Something went wrong on our side. Please try again.";
    if (req.path.startsWith("/api/") || req.accepts(["json", "html"]) === "json") {
      res.status(status).json({ error: { code, message } });
    } else {
      res
        .status(status)
        .type("html")
        .send(`<!doctype html><title>Error</title><h1>${message}</h1><p><a href="/">Back to the start</a></p>`);
    }
  });

  // A standby worker (WORKERS > 1) listens only when the primary promotes it (docs/decisions/371).
  whenServing(
    () =>
      server.listen(config.PORT, config.HOST, () => {
        const address = server.address();
        const port = typeof address === "object" && address ? address.port : config.PORT;
        log.info(
          { port, host: config.HOST, env: config.DEPLOY_ENV },
          `listening on http://${config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST}:${port}`,
        );
        reportServing();
      }),
    log,
  );

  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    const force = setTimeout(() => {
      log.error("in-flight requests did not finish in time; closing anyway");
      for (const socket of sockets) socket.destroy();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      clearTimeout(force);
      // Each resource gets CLOSE_EACH_MS: one that hangs (a pool on a frozen database) is left behind.
      await closeAll((msg, trouble) => (trouble ? log.warn(msg) : log.info(msg)));
      log.info("shutdown complete");
      log.flush?.();
      process.exit(0);
    });
    // Idle keep-alive connections would hold close() open; busy ones finish first.
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** The server build's deferred start-up checks (app/entry.server.tsx re-exports them); none under Vite. */
function deferredChecksOf(build: ServerBuild | (() => Promise<ServerBuild>) | undefined): (() => void) | undefined {
  if (build === undefined || typeof build === "function") return undefined;
  const checks = (build.entry.module as { deferredStartupChecks?: unknown }).deferredStartupChecks;
  return typeof checks === "function" ? (checks as () => void) : undefined;
}

/**
 * The sample CMS API fake from its own file: build/mocks/cms-api.js (scripts/build-server.mjs)
 * under the compiled server, the source under tsx. The path is computed so that esbuild leaves
 * the import alone and the fake stays out of build/server.js.
 */
async function startSampleUpstream(buildDir: string): Promise<FakeUpstream> {
  const fromSource = import.meta.url.endsWith(".ts");
  const file = fromSource ? path.resolve("mocks", "cms-api", "index.ts") : path.join(buildDir, "mocks", "cms-api.js");
  if (!existsSync(file)) {
    console.error(`UPSTREAM=fake: the sample CMS API fake is missing (${file}); run \`npm run build\` first.`);
    process.exit(1);
  }
  const fake = (await import(pathToFileURL(file).href)) as typeof FakeUpstreamModule;
  return fake.startFakeUpstream({ apiKey: FAKE_UPSTREAM_KEY });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
