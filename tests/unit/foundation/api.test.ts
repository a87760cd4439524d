import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoute, jsonResponse, parseJsonBody } from "../../../app/server/platform/api.server";

const Body = z.object({ zip: z.string().regex(/^\d{5}$/), count: z.number().int() });
const route = apiRoute({
  POST: async ({ request }) => jsonResponse({ ok: true, body: await parseJsonBody(request, Body) }),
});

function post(body: string, headers: Record<string, string> = { "content-type": "application/json" }) {
  return route.action({
    request: new Request("http://localhost/api/x", { method: "POST", body, headers }),
    params: {},
    context: {},
  });
}

describe("apiRoute", () => {
  it("answers a valid body", async () => {
    const res = await post(JSON.stringify({ zip: "75201", count: 2 }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, body: { zip: "75201", count: 2 } });
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const res = await route.loader({ request: new Request("http://localhost/api/x"), params: {}, context: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("answers malformed JSON with 400 in the error shape", async () => {
    const res = await post("{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "malformed_json", message: "The request body is not valid JSON." },
    });
  });

  it("refuses JSON nested past 64 levels before parsing it, with 400 in the error shape", async () => {
    const res = await post("[".repeat(50_000) + "]".repeat(50_000));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "malformed_json",
        message: "The request body nests arrays and objects more than 64 levels deep.",
      },
    });
    // 64 levels is still read (and then validated as any body is).
    const deep = await post(`{"zip":"75201","count":2,"x":${"[".repeat(63)}${"]".repeat(63)}}`);
    expect(deep.status).toBe(200);
  });

  it("names each invalid field", async () => {
    const res = await post(JSON.stringify({ zip: "7520", count: "two" }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(Object.keys(body.error.fields).sort()).toEqual(["count", "zip"]);
  });

  it("answers a body over 100 KB with 413, declared or not", async () => {
    const big = JSON.stringify({ zip: "75201", count: 1, pad: "x".repeat(110 * 1024) });
    const declared = await post(big, { "content-type": "application/json", "content-length": String(big.length) });
    expect(declared.status).toBe(413);
    const undeclared = await post(big);
    expect(undeclared.status).toBe(413);
  });

  it("answers a non-JSON content type with 415", async () => {
    const res = await post("zip=75201", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
  });
});
