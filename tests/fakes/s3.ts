import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

/**
 * A local S3-compatible server (s3rver) with one bucket, for upload tests.
 * Point the service at it with UPLOAD_BUCKET=<bucket>, UPLOAD_S3_ENDPOINT=<url>
 * and any AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (s3rver accepts S3RVER/S3RVER).
 */

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  client: S3Client;
  listKeys(prefix?: string): Promise<string[]>;
  getObject(key: string): Promise<{ body: Buffer; contentType?: string; metadata?: Record<string, string> }>;
  close(): Promise<void>;
}

export const FAKE_S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startFakeS3(options: { bucket?: string } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? "agent-uploads-test";
  const directory = mkdtempSync(path.join(os.tmpdir(), "fake-s3-"));
  // s3rver ships no type declarations; import it through a variable so TypeScript does not look for them.
  const moduleName = "s3rver";
  const { default: S3rver } = (await import(moduleName)) as {
    default: new (options: object) => {
      run(): Promise<AddressInfo>;
      close(): Promise<void>;
      httpServer?: { closeAllConnections(): void };
    };
  };
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    resetOnClose: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: FAKE_S3_CREDENTIALS,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    endpoint,
    bucket,
    client,
    async listKeys(prefix) {
      const out = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, ...(prefix ? { Prefix: prefix } : {}) }),
      );
      return (out.Contents ?? []).map((o) => o.Key!).sort();
    },
    async getObject(key) {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return {
        body: Buffer.from(await out.Body!.transformToByteArray()),
        contentType: out.ContentType,
        metadata: out.Metadata,
      };
    },
    async close() {
      client.destroy();
      const closed = server.close();
      // A client that keeps its connection busy (a server under test polling every second) would
      // hold close() open for as long as it polls: every connection is ended once close is asked.
      server.httpServer?.closeAllConnections();
      await closed;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
