import http from "node:http";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clientKey, createRateLimiter } from "../../../server/rate-limit";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { forgetSingleton, processSingleton } from "../../../app/server/platform/lifecycle.server";
import { sharedRedis } from "../../../app/server/platform/shared-state.server";
import { startRedis, type RunningRedis } from "../../helpers/engines";
import { listen } from "./helpers";

const FIVE_MINUTES = 5 * 60 * 1000;
const quiet = { warn: () => undefined };
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function appWith(limiter: ReturnType<typeof createRateLimiter>, trustProxy = false) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(limiter);
  app.get("/api/health", (_req, res) => res.json({ status: "ok" }));
  app.all("*", (req, res) => res.json({ ip: req.ip }));
  const s = await listen(app);
  servers.push(s);
  return s.url;
}

/** GET over one keep-alive connection per call site (sequential, so counts are exact). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

describe("the edge rate rule over real HTTP", () => {
  it("allows exactly 2,000 requests from one IP in 5 minutes and refuses the 2,001st with 429", async () => {
    const base = await appWith(
      createRateLimiter({ max: 2000, windowMs: FIVE_MINUTES, exemptPaths: ["/api/health"], log: quiet }),
    );
    for (let i = 1; i <= 2000; i++) {
      const res = await get(`${base}/plans?n=${i}`);
      if (res.status !== 200) throw new Error(`request ${i} answered ${res.status}`);
      if (i === 1) expect(res.headers["ratelimit-remaining"]).toBe("1999");
      if (i === 2000) expect(res.headers["ratelimit-remaining"]).toBe("0");
    }
    const refused = await get(`${base}/plans?n=2001`);
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/application\/json/);
    const body = JSON.parse(refused.body);
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/2000 every 5 minutes/);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(250);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(refused.headers["ratelimit-limit"]).toBe("2000");
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    expect(refused.headers["ratelimit-reset"]).toBe(String(retryAfter));
    expect(refused.headers["ratelimit-policy"]).toBe("2000;w=300");
    // The health check (load balancer, deploy smoke test) is never limited.
    const health = await get(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers["ratelimit-limit"]).toBeUndefined();
  }, 120_000);

  it("counts each client IP on its own, from X-Forwarded-For only when trust proxy is on", async () => {
    const trusted = await appWith(createRateLimiter({ max: 2, windowMs: FIVE_MINUTES, log: quiet }), true);
    for (const ip of ["203.0.113.1", "203.0.113.2"]) {
      expect((await get(trusted, { "x-forwarded-for": ip })).status).toBe(200);
      expect((await get(trusted, { "x-forwarded-for": ip })).status).toBe(200);
      expect((await get(trusted, { "x-forwarded-for": ip })).status).toBe(429);
    }
    const echoed = JSON.parse((await get(`${trusted}/x`, { "x-forwarded-for": "198.51.100.9" })).body);
    expect(echoed.ip).toBe("198.51.100.9");

    // Without trust proxy the header is ignored: every request is the socket's
    // address, so changing the header buys nothing.
    const untrusted = await appWith(createRateLimiter({ max: 2, windowMs: FIVE_MINUTES, log: quiet }), false);
    expect((await get(untrusted, { "x-forwarded-for": "203.0.113.1" })).status).toBe(200);
    expect((await get(untrusted, { "x-forwarded-for": "203.0.113.2" })).status).toBe(200);
    expect((await get(untrusted, { "x-forwarded-for": "203.0.113.3" })).status).toBe(429);
  });

  it("puts the RateLimit headers on every counted response", async () => {
    const base = await appWith(createRateLimiter({ max: 5, windowMs: 60_000, log: quiet }));
    const res = await get(`${base}/`);
    expect(res.headers["ratelimit-limit"]).toBe("5");
    expect(res.headers["ratelimit-remaining"]).toBe("4");
    expect(res.headers["ratelimit-reset"]).toBe("60");
    expect(res.headers["ratelimit-policy"]).toBe("5;w=60");
    expect(res.headers["retry-after"]).toBeUndefined();
  });

  it("logs a limited client once per window, not once per refused request", async () => {
    const lines: object[] = [];
    const base = await appWith(
      createRateLimiter({ max: 1, windowMs: 60_000, log: { warn: (obj) => lines.push(obj) } }),
    );
    for (let i = 0; i < 5; i++) await get(`${base}/`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ limit: 1, windowSeconds: 60 });
  });

  it("lets a request through (never 5xx) when the limiter itself fails", async () => {
    const broken = { consume: () => Promise.reject(new Error("store exploded")) };
    const base = await appWith(createRateLimiter({ max: 1, windowMs: 60_000, log: quiet, limiter: broken as never }));
    expect((await get(`${base}/`)).status).toBe(200);
    expect((await get(`${base}/`)).status).toBe(200);
  });
});

describe("windows", () => {
  afterEach(() => vi.useRealTimers());

  it("opens a new window for a client once its window has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    const limiter = createRateLimiter({ max: 3, windowMs: 10_000, log: quiet });
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push((await limiter.hit("a")).allowed);
    expect(allowed).toEqual([true, true, true, false]);
    vi.advanceTimersByTime(9_999);
    expect(await limiter.hit("a")).toMatchObject({ allowed: false, resetInMs: 1 });
    vi.advanceTimersByTime(1);
    expect(await limiter.hit("a")).toMatchObject({ allowed: true, remaining: 2, resetInMs: 10_000 });
  });

  it("reports the first refusal of a window once", async () => {
    const limiter = createRateLimiter({ max: 1, windowMs: 60_000, log: quiet });
    const hits = [];
    for (let i = 0; i < 4; i++) hits.push(await limiter.hit("b"));
    expect(hits.map((h) => h.firstRefusal)).toEqual([false, true, false, false]);
  });
});

describe("memory stays bounded", () => {
  it("tracks at most maxClients addresses under 100,000 distinct IPs, forgetting the oldest", async () => {
    const limiter = createRateLimiter({ max: 2000, windowMs: FIVE_MINUTES, maxClients: 10_000, log: quiet });
    let peak = 0;
    for (let i = 0; i < 100_000; i++) {
      await limiter.hit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      peak = Math.max(peak, limiter.trackedClients);
    }
    expect(peak).toBe(10_000);
    // The newest client is still counted; the first one was forgotten and starts afresh.
    expect((await limiter.hit("10.1.134.159")).remaining).toBe(1998); // i = 99,999
    expect((await limiter.hit("10.0.0.0")).remaining).toBe(1999);
  }, 60_000);
});

describe("shared across processes on Redis (REDIS_URL)", () => {
  let redis: RunningRedis;
  const saved = process.env.REDIS_URL;
  const lines: string[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    process.env.REDIS_URL = redis.url;
    resetEnvForTests();
    forgetSingleton("shared-state");
    forgetSingleton("logger");
    // Capture the service's warnings.
    processSingleton("logger", () => ({
      warn: (_obj: object, msg?: string) => lines.push(String(msg ?? _obj)),
      info: () => undefined,
      error: () => undefined,
    }));
  });
  afterAll(async () => {
    sharedRedis()?.disconnect();
    forgetSingleton("shared-state");
    forgetSingleton("logger");
    if (saved === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved;
    resetEnvForTests();
    await redis?.stop();
  });

  it("counts one client once across two instances (atomic), then falls back to per-process counts when Redis stops", async () => {
    await new Promise<void>((resolve) => {
      const client = sharedRedis()!;
      if (client.status === "ready") resolve();
      else client.once("ready", () => resolve());
    });
    // Two limiters = two processes' views of the same rule: they share one count in Redis.
    const one = createRateLimiter({ max: 100, windowMs: FIVE_MINUTES, log: quiet });
    const two = createRateLimiter({ max: 100, windowMs: FIVE_MINUTES, log: quiet });
    const hits = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? one : two).hit("198.51.100.20")));
    expect(hits.filter((h) => h.allowed)).toHaveLength(100);
    expect(hits.filter((h) => h.firstRefusal)).toHaveLength(1);
    expect(Number(await sharedRedis()!.get("marketplace:rate-rule:198.51.100.20"))).toBe(150);

    await redis.stop();
    const during = await Promise.all(Array.from({ length: 50 }, () => one.hit("198.51.100.21")));
    // Each process now counts on its own (the full rule, in this process), and says so once.
    expect(during.every((h) => h.allowed)).toBe(true);
    expect(during.at(-1)!.remaining).toBe(50);
    expect(lines.filter((l) => l.startsWith("Redis unavailable"))).toHaveLength(1);
  }, 30_000);
});

describe("client keys", () => {
  it("counts IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey(undefined)).toBe("unknown");
  });
});
