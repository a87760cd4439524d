import http from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { clientKey, createRateLimiter, RateLimitStore } from "../../../server/rate-limit";
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
});

describe("windows", () => {
  it("opens a new window for a client once its window has passed", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ max: 3, windowMs: 10_000, now: () => now, log: quiet });
    const store = limiter.store;
    expect([1, 2, 3, 4].map(() => store.hit("a", now).allowed)).toEqual([true, true, true, false]);
    now += 9_999;
    expect(store.hit("a", now)).toMatchObject({ allowed: false, resetInMs: 1 });
    now += 1;
    expect(store.hit("a", now)).toMatchObject({ allowed: true, remaining: 2, resetInMs: 10_000 });
  });

  it("reports Retry-After in whole seconds, rounded up, never 0", () => {
    const store = new RateLimitStore(1, 1_500);
    store.hit("a", 0);
    expect(store.hit("a", 1_499)).toMatchObject({ allowed: false, resetInMs: 1 });
  });
});

describe("memory stays bounded", () => {
  it("tracks at most maxClients addresses under 100,000 distinct IPs, forgetting the oldest", () => {
    const store = new RateLimitStore(2000, FIVE_MINUTES, 10_000);
    let peak = 0;
    for (let i = 0; i < 100_000; i++) {
      const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      store.hit(ip, 1_000 + i);
      peak = Math.max(peak, store.size);
    }
    expect(peak).toBe(10_000);
    expect(store.size).toBe(10_000);
    // The newest client is still counted; the first one was forgotten and starts afresh.
    expect(store.hit("10.1.134.159", 200_000).remaining).toBe(1998); // i = 99,999
    expect(store.hit("10.0.0.0", 200_000).remaining).toBe(1999);
  });

  it("drops expired windows before evicting live ones", () => {
    const store = new RateLimitStore(10, 1_000, 3);
    store.hit("old-1", 0);
    store.hit("old-2", 0);
    store.hit("live", 900);
    store.hit("live", 950);
    // At t=1500 the two old windows have ended: a newcomer takes their room
    // and the live client keeps its count.
    store.hit("new", 1_500);
    expect(store.size).toBe(2);
    expect(store.hit("live", 1_600).remaining).toBe(7);
  });

  it("uses the default cap of 100,000 tracked clients through the middleware", () => {
    expect(createRateLimiter({ max: 1, windowMs: 1000 }).store.maxClients).toBe(100_000);
  });
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
