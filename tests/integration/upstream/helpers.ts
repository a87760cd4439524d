import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { resetUpstreamClientForTests } from "../../../app/server/upstream/client.server";
import { setOwnDataSourceForTests, type OwnCoverageData } from "../../../app/server/upstream/lookups.server";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";

export const FIXTURE_DIR = path.resolve(import.meta.dirname, "../../fixtures/upstream");
export const TEST_KEY = "test-upstream-key-0123456789";

/** Dallas County plans of the fixture (tests/fixtures/upstream/README.md). */
export const DALLAS_PLANS = [
  "11111TX0010001",
  "11111TX0010002",
  "11111TX0010003",
  "11111TX0010004",
  "11111TX0010005",
  "11111TX0010006",
  "11111TX0010007",
  "11111TX0010008",
  "11111TX0010009",
  "22222TX0020001",
  "22222TX0020002",
  "22222TX0020003",
  "22222TX0020004",
];

/**
 * A fake upstream over the fixture, with the service configured to use it:
 * env read afresh, client cache and counters cleared.
 */
export async function startConfiguredFake(env: Record<string, string | undefined> = {}): Promise<FakeUpstream> {
  const fake = await startFakeUpstream({ apiKey: TEST_KEY, dataDir: FIXTURE_DIR });
  configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY, ...env });
  return fake;
}

/** A stand-in upstream on loopback answering with `handler`, for shapes and faults the fake does not make. */
export async function startStandInUpstream(
  handler: http.RequestListener,
): Promise<{ server: http.Server; baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export function configureService(env: Record<string, string | undefined>): void {
  const settings: Record<string, string | undefined> = {
    LOG_LEVEL: "silent",
    UPSTREAM_TIMEOUT_MS: undefined,
    UPSTREAM_MAX_CONCURRENCY: undefined,
    UPSTREAM_IS_SAMPLE: undefined,
    ...env,
  };
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
  resetUpstreamClientForTests();
}

/** Own rows served from memory, as the plan store would serve them. */
export function ownRowsFrom(data: {
  formulary?: Awaited<ReturnType<OwnCoverageData["formularyRows"]>>;
  network?: Awaited<ReturnType<OwnCoverageData["networkRows"]>>;
}): OwnCoverageData & { queries: unknown[] } {
  const queries: unknown[] = [];
  const source = {
    queries,
    formularyRows(q: { year: number; rxcuis: string[]; planIds: string[] }) {
      queries.push({ kind: "formulary", ...q });
      return (data.formulary ?? []).filter((r) => q.rxcuis.includes(r.rxcui) && q.planIds.includes(r.planId));
    },
    networkRows(q: { year: number; npis: string[]; planIds: string[] }) {
      queries.push({ kind: "network", ...q });
      return (data.network ?? []).filter((r) => q.npis.includes(r.npi) && q.planIds.includes(r.planId));
    },
    planYears: () => [2026, 2027],
  };
  setOwnDataSourceForTests(source);
  return source;
}

export function jsonPost(path: string, body: unknown): Request {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export type RouteModule = {
  action: (args: {
    request: Request;
    params: Record<string, string | undefined>;
    context: unknown;
  }) => Promise<Response> | Response;
};

// Route answers are read loosely in tests: each test asserts the fields it cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JsonBody = any;

export async function callRoute(
  route: RouteModule,
  request: Request,
): Promise<{ status: number; body: JsonBody; ms: number }> {
  const started = performance.now();
  const response = await route.action({ request, params: {}, context: {} });
  const body = await response.json();
  return { status: response.status, body, ms: performance.now() - started };
}
