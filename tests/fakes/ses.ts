import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readRequestBody, waitUntil } from "./fake-http";

/**
 * A local Amazon SES (v2 API) for tests: aws-ses-v2-local does the real work
 * (it accepts SendEmail from @aws-sdk/client-sesv2 and keeps what it got,
 * readable at GET /store); a thin front server adds what it lacks: an SES
 * sandbox that rejects unverified recipients with MessageRejected, and
 * injected 5xx failures. Point the service at it with SES_ENDPOINT=<url>.
 */

export interface FakeSesEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  headers?: { name: string; value: string }[];
  at: number;
}

export interface FakeSes {
  url: string;
  emails(): Promise<FakeSesEmail[]>;
  waitForEmails(count: number, timeoutMs?: number): Promise<FakeSesEmail[]>;
  setSandbox(verifiedRecipients: string[] | null): void;
  failNext(count: number): void;
  reset(): Promise<void>;
  close(): Promise<void>;
}

type StartSes = (config: { host: string; port: number }) => Promise<Server>;

export async function startFakeSes(): Promise<FakeSes> {
  const mod = (await import("aws-ses-v2-local")) as unknown as { default: StartSes | { default: StartSes } };
  const start: StartSes = typeof mod.default === "function" ? mod.default : mod.default.default;
  const backend = await start({ host: "127.0.0.1", port: 0 });
  const backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  let sandbox: Set<string> | null = null;
  let failures = 0;

  const front = createServer(async (req, res) => {
    const body = await readRequestBody(req);
    const url = req.url ?? "/";
    if (req.method === "POST" && url.startsWith("/v2/email/outbound-emails")) {
      if (failures > 0) {
        failures--;
        res.writeHead(500, { "content-type": "application/json", "x-amzn-errortype": "InternalFailure" });
        res.end(JSON.stringify({ message: "fake SES outage" }));
        return;
      }
      if (sandbox) {
        const request = JSON.parse(body.toString("utf8") || "{}") as {
          Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
        };
        const recipients = [
          ...(request.Destination?.ToAddresses ?? []),
          ...(request.Destination?.CcAddresses ?? []),
          ...(request.Destination?.BccAddresses ?? []),
        ];
        const unverified = recipients.filter((r) => !sandbox!.has(r.toLowerCase()));
        if (unverified.length) {
          res.writeHead(400, { "content-type": "application/json", "x-amzn-errortype": "MessageRejected" });
          res.end(
            JSON.stringify({
              message: `Email address is not verified. The following identities failed the check in region US-EAST-1: ${unverified.join(", ")}`,
            }),
          );
          return;
        }
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === "host" || name === "content-length" || name === "connection") continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const answer = await fetch(backendUrl + url, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(body),
    });
    const out = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(out);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const emails = async () => {
    const store = (await (await fetch(`${backendUrl}/store`)).json()) as { emails: FakeSesEmail[] };
    return store.emails;
  };
  return {
    url,
    emails,
    waitForEmails: (count, timeoutMs = 5_000) =>
      waitUntil(
        async () => ((await emails()).length >= count ? emails() : null),
        timeoutMs,
        `${count} emails at the fake SES`,
      ),
    setSandbox(verified) {
      sandbox = verified ? new Set(verified.map((v) => v.toLowerCase())) : null;
    },
    failNext(count) {
      failures = count;
    },
    async reset() {
      sandbox = null;
      failures = 0;
      await fetch(`${backendUrl}/clear-store`, { method: "POST" });
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      });
      await new Promise<void>((resolve) => {
        backend.closeAllConnections?.();
        backend.close(() => resolve());
      });
    },
  };
}
