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

/** A minimal baseline JPEG frame: SOI, APP0 (JFIF), ..., EOI. */
export function jpeg(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from("JFIF\0", "latin1"),
    Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0x34]),
    Buffer.from([0xff, 0xd9]),
  ]);
}

export function pdf(body = "1 0 obj << /Type /Catalog >> endobj"): Buffer {
  return Buffer.from(`%PDF-1.7\n%\xe2\xe3\xcf\xd3\n${body}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, "latin1");
}
