import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 18 item 6: every answer of the HTTP server carries the security
 * headers, including the ones Node's HTTP parser gives itself (400, 431)
 * before any middleware runs, and requests no route can be given (a target
 * that is not a path, a Host that is not a host name, a page POST in a body
 * type no form sends) answer 4xx, never 500. Sent over raw sockets, since
 * fetch() would refuse to send most of them.
 */
let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await startServer();
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.stop();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => (data += d));
    socket.on("error", () => undefined);
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on("close", () => {
      clearTimeout(timer);
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return reject(new Error(`no answer to ${JSON.stringify(request.slice(0, 60))}`));
      const [statusLine, ...lines] = data.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: data.slice(end + 4) });
    });
  });
}

const SECURITY_HEADERS = [
  "strict-transport-security",
  "x-frame-options",
  "x-content-type-options",
  "referrer-policy",
  "content-security-policy",
  "permissions-policy",
  "cross-origin-opener-policy",
];

function expectSecured(answer: RawAnswer, what: string) {
  for (const name of SECURITY_HEADERS) expect(answer.headers[name], `${name} on ${what}`).toBeTruthy();
  expect(answer.headers["x-frame-options"]).toBe("DENY");
}

function post(path: string, contentType: string | undefined, body: string): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAccept: text/html\r\n` +
    (contentType === undefined ? "" : `Content-Type: ${contentType}\r\n`) +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

describe("answers of the HTTP parser itself", () => {
  it("431 for headers over 16 KB carries the security headers and the error shape", async () => {
    const answer = await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expectSecured(answer, "431");
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "headers_too_large" } });
  });

  it("400 for bytes that are not HTTP carries the security headers", async () => {
    const answer = await raw("GARBAGE\r\n\r\n");
    expect(answer.status).toBe(400);
    expectSecured(answer, "parser 400");
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "bad_request" } });
  });
});

describe("requests no route can be given answer 4xx, never 500", () => {
  it.each([
    ["Host: a b", "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"],
    ["GET *", "GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
  ])("%s answers 400 with the security headers", async (_what, request) => {
    const answer = await raw(request);
    expect(answer.status).toBe(400);
    expectSecured(answer, _what);
  });

  const bodyTypes: Array<[string | undefined, string]> = [
    ["text/plain", "email=a@example.com"],
    ["application/json", '{"email":"a@example.com"}'],
    ["application/xml", "<a/>"],
    ["application/octet-stream", "\u0000\u0001"],
    ["image/png", "x"],
    ["multipart/form-data", "abc"],
    ["multipart/form-data; boundary=zzz", "abc"],
    ["text/html; charset=utf-8", "<p>"],
    ["garbage", "x"],
    [undefined, "email=a@example.com"],
    [undefined, ""],
  ];
  for (const path of ["/updates", "/agent-discovery", "/unsubscribe", "/"]) {
    it.each(bodyTypes)(`POST ${path} with Content-Type %s answers 4xx`, async (type, body) => {
      const answer = await raw(post(path, type, body));
      expect(answer.status, `${path} ${type}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${path} ${type}`).toBeLessThan(500);
      expectSecured(answer, `${path} ${type}`);
    });
  }

  it("a GET with a Content-Type still shows the page", async () => {
    const answer = await raw(
      "GET /updates HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
    );
    expect(answer.status).toBe(200);
    expectSecured(answer, "GET /updates");
  });
});
