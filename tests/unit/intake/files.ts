import { deflateSync } from "node:zlib";

/** Real, minimal files of each accepted type, and the hostile variants the upload tests need. */

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1x1 grey PNG; `extraChunks` are inserted before IDAT. */
export function png(extraChunks: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    ...extraChunks,
    pngChunk("IDAT", deflateSync(Buffer.from([0, 0x80]))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export function pngTextChunk(text: string): Buffer {
  return pngChunk("tEXt", Buffer.from(`Comment\0${text}`, "latin1"));
}

/** A real 8x8 grey baseline JPEG (made once with sharp). */
const JPEG_8X8 =
  "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKwAf//Z";

export function jpeg(): Buffer {
  return Buffer.from(JPEG_8X8, "base64");
}

/** The same JPEG with a comment (COM) segment right after SOI. */
export function jpegWithComment(text: string): Buffer {
  const body = Buffer.from(text, "latin1");
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  const j = jpeg();
  return Buffer.concat([j.subarray(0, 2), com, j.subarray(2)]);
}

/**
 * A minimal real one-page PDF. `catalog` adds entries to the catalog
 * (an /OpenAction, /Names …), `objects` adds objects after the page, `after`
 * is appended after %%EOF.
 */
export function pdf(options: { catalog?: string; objects?: string; after?: string } | string = {}): Buffer {
  const o = typeof options === "string" ? { objects: options } : options;
  return Buffer.from(
    `%PDF-1.7\n%\xe2\xe3\xcf\xd3\n` +
      `1 0 obj << /Type /Catalog /Pages 2 0 R ${o.catalog ?? ""} >> endobj\n` +
      `2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n` +
      `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n` +
      `${o.objects ?? ""}\ntrailer << /Root 1 0 R >>\n%%EOF\n${o.after ?? ""}`,
    "latin1",
  );
}
