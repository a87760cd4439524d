import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readRequestBody, waitUntil } from "./fake-http";

/**
 * A stand-in for the Resend HTTP API on 127.0.0.1, for tests and local runs.
 * Point the SDK at it with RESEND_BASE_URL=<url> (the SDK reads that variable
 * when a client is constructed). It answers POST /emails, the audience
 * contact calls, honours Idempotency-Key like Resend, and can play an outage
 * (500s or dropped connections) or a sandbox account that only delivers to
 * verified recipients (403 validation_error, as Resend answers).
 */

export interface FakeResendEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text?: string;
  html?: string;
  reply_to?: string | string[];
  headers: Record<string, string>;
  idempotencyKey?: string;
}

export interface FakeResendContactCall {
  method: "POST" | "PATCH";
  audienceId: string;
  email: string;
  unsubscribed?: boolean;
}

export interface FakeResend {
  url: string;
  apiKey: string;
  emails: FakeResendEmail[];
  contacts: FakeResendContactCall[];
  /** Every request seen: method, path, status answered. */
  requests: { method: string; path: string; status: number }[];
  /** The next `count` calls answer `status` (default 500). */
  failNext(count: number, status?: number): void;
  /** While on, every call drops its connection (a provider outage). */
  setOutage(on: boolean): void;
  /** Only these recipients are accepted (sandbox); null turns the sandbox off. */
  setSandbox(verifiedRecipients: string[] | null): void;
  reset(): void;
  waitForEmails(count: number, timeoutMs?: number): Promise<FakeResendEmail[]>;
  close(): Promise<void>;
}

export async function startFakeResend(options: { apiKey?: string } = {}): Promise<FakeResend> {
  const apiKey = options.apiKey ?? "re_test_key";
  const emails: FakeResendEmail[] = [];
  const contacts: FakeResendContactCall[] = [];
  const requests: FakeResend["requests"] = [];
  const idempotent = new Map<string, string>();
  let failures = 0;
  let failureStatus = 500;
  let outage = false;
  let sandbox: Set<string> | null = null;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const send = (status: number, body: unknown) => {
      requests.push({ method: req.method ?? "", path: url.pathname, status });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const body = await readRequestBody(req);
    if (outage) {
      requests.push({ method: req.method ?? "", path: url.pathname, status: 0 });
      req.socket.destroy();
      return;
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return send(401, { statusCode: 401, name: "validation_error", message: "API key is invalid" });
    }
    if (failures > 0) {
      failures--;
      return send(failureStatus, {
        statusCode: failureStatus,
        name: "internal_server_error",
        message: "Something went wrong (fake outage)",
      });
    }
    let json: Record<string, unknown> = {};
    try {
      json = body.length ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>) : {};
    } catch {
      return send(400, { statusCode: 400, name: "validation_error", message: "Invalid JSON" });
    }

    if (req.method === "POST" && url.pathname === "/emails") {
      const key = req.headers["idempotency-key"] as string | undefined;
      if (key && idempotent.has(key)) return send(200, { id: idempotent.get(key) });
      const to = (Array.isArray(json.to) ? json.to : [json.to]).map(String);
      if (!json.from || !to.length || !json.subject) {
        return send(422, {
          statusCode: 422,
          name: "missing_required_field",
          message: "from, to and subject are required",
        });
      }
      if (sandbox && to.some((address) => !sandbox!.has(address.toLowerCase()))) {
        const owner = [...sandbox][0] ?? "owner@example.com";
        return send(403, {
          statusCode: 403,
          name: "validation_error",
          message: `You can only send testing emails to your own email address (${owner}). To send emails to other recipients, please verify a domain at resend.com/domains, and change the \`from\` address to an email using this domain.`,
        });
      }
      const id = randomUUID();
      if (key) idempotent.set(key, id);
      emails.push({
        id,
        from: String(json.from),
        to,
        subject: String(json.subject),
        text: json.text as string | undefined,
        html: json.html as string | undefined,
        reply_to: json.reply_to as string | undefined,
        headers: (json.headers as Record<string, string>) ?? {},
        idempotencyKey: key,
      });
      return send(200, { id });
    }
    const contactPath = /^\/audiences\/([^/]+)\/contacts(?:\/([^/]+))?$/.exec(url.pathname);
    if (contactPath && req.method === "POST" && !contactPath[2]) {
      contacts.push({
        method: "POST",
        audienceId: decodeURIComponent(contactPath[1]!),
        email: String(json.email),
        unsubscribed: json.unsubscribed as boolean | undefined,
      });
      return send(201, { object: "contact", id: randomUUID() });
    }
    if (contactPath && req.method === "PATCH" && contactPath[2]) {
      contacts.push({
        method: "PATCH",
        audienceId: decodeURIComponent(contactPath[1]!),
        email: decodeURIComponent(contactPath[2]),
        unsubscribed: json.unsubscribed as boolean | undefined,
      });
      return send(200, { object: "contact", id: randomUUID() });
    }
    return send(404, { statusCode: 404, name: "not_found", message: `No route ${req.method} ${url.pathname}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    emails,
    contacts,
    requests,
    failNext(count, status = 500) {
      failures = count;
      failureStatus = status;
    },
    setOutage(on) {
      outage = on;
    },
    setSandbox(verified) {
      sandbox = verified ? new Set(verified.map((v) => v.toLowerCase())) : null;
    },
    reset() {
      emails.length = 0;
      contacts.length = 0;
      requests.length = 0;
      idempotent.clear();
      failures = 0;
      outage = false;
      sandbox = null;
    },
    waitForEmails(count, timeoutMs = 5_000) {
      return waitUntil(
        () => (emails.length >= count ? emails.slice() : null),
        timeoutMs,
        `${count} emails at the fake Resend`,
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
