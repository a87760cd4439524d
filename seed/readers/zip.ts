/**
 * Zipped public-use files read as CMS publishes them (`plan-attributes-puf.zip`
 * holding one CSV, sometimes beside a data dictionary): the data entry is
 * streamed out of the archive with yauzl, never extracted to disk.
 */
import { createReadStream, openSync, readSync, closeSync, statSync } from "node:fs";
import type { Readable } from "node:stream";
import yauzl from "yauzl";

export const isZip = (file: string): boolean => /\.zip$/i.test(file);

type ZipData = { zip: yauzl.ZipFile; entry: yauzl.Entry };

/** The archive's data entry: its largest .csv or .txt file (macOS resource forks ignored). */
async function openDataEntry(file: string): Promise<ZipData> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve());
    zip.on("error", reject);
    zip.readEntry();
  });
  const data = entries
    .filter((e) => /\.(csv|txt)$/i.test(e.fileName) && !/(^|\/)(__MACOSX\/|\._)/.test(e.fileName))
    .sort((a, b) => b.uncompressedSize - a.uncompressedSize);
  if (data.length === 0) {
    zip.close();
    throw new Error(
      `no .csv or .txt file in the archive (found ${entries.map((e) => e.fileName).join(", ") || "nothing"})`,
    );
  }
  return { zip, entry: data[0] };
}

/** The bytes of a source file: the file itself, or the data entry of a .zip. */
export async function openBytes(file: string, highWaterMark = 1 << 20): Promise<Readable> {
  if (!isZip(file)) return createReadStream(file, { highWaterMark });
  const { zip, entry } = await openDataEntry(file);
  const stream = await zip.openReadStreamPromise(entry);
  stream.on("close", () => zip.close());
  stream.on("end", () => zip.close());
  return stream;
}

/** How many bytes a read of `file` yields: its size, or the data entry's uncompressed size. */
export async function contentSize(file: string): Promise<number> {
  if (!isZip(file)) return statSync(file).size;
  const { zip, entry } = await openDataEntry(file);
  zip.close();
  return entry.uncompressedSize;
}

/** The first `n` bytes of the content (for sniffing the encoding and delimiter). */
export async function headBytes(file: string, n: number): Promise<Buffer> {
  if (!isZip(file)) {
    const fd = openSync(file, "r");
    try {
      const buf = Buffer.alloc(n);
      return buf.subarray(0, readSync(fd, buf, 0, n, 0));
    } finally {
      closeSync(fd);
    }
  }
  const stream = await openBytes(file, Math.min(n, 1 << 16));
  const parts: Buffer[] = [];
  let have = 0;
  for await (const chunk of stream) {
    parts.push(chunk as Buffer);
    have += (chunk as Buffer).length;
    if (have >= n) break;
  }
  stream.destroy();
  return Buffer.concat(parts).subarray(0, n);
}
