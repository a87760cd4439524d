import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import type * as PdfLib from "pdf-lib";
import type { PDFDocument, PDFObject, PDFRef } from "pdf-lib";

/**
 * Opening PDFs that are encrypted with no password to open them (docs/decisions/506).
 *
 * Many forms are "secured": they are encrypted with an owner password that restricts editing or
 * printing, and an empty user password, so every viewer opens them without asking. Insurers'
 * applications and government forms often are. Refusing them as "password-protected PDFs cannot be
 * accepted" tells the visitor something false. Their file opens without a password.
 *
 * With the standard security handler (ISO 32000-1 §7.6.3, ISO 32000-2 §7.6.4) and an empty user
 * password, the file key follows from the file alone. The document is parsed again with every
 * string and stream decrypted as it is read, before object streams are unpacked. The encryption
 * dictionary is then dropped, so the document is stored unencrypted and disarmed like any other.
 * A file that needs a password to open, or that uses another security handler, is refused as before.
 */

/** The 32-byte padding of Algorithm 2 (ISO 32000-1 §7.6.3.3). */
const PADDING = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");

type Cipher = "rc4" | "aes" | "identity";

interface FileKey {
  key: Buffer;
  /** Key of strings and of streams: RC4 and AES-128 derive a key per object; AES-256 does not. */
  perObject: boolean;
  strings: Cipher;
  streams: Cipher;
  /** R4 and later may leave metadata streams in the clear. */
  encryptMetadata: boolean;
}

function md5(...parts: Uint8Array[]): Buffer {
  const hash = createHash("md5");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** RC4 (ARCFOUR): OpenSSL 3 no longer offers it without its legacy provider. */
function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** AES-CBC with the IV in the first 16 bytes, as PDF writes it; lenient about bad padding. */
function aesDecrypt(key: Buffer, data: Uint8Array): Buffer {
  if (data.length < 32 || data.length % 16 !== 0) return data.length <= 16 ? Buffer.alloc(0) : Buffer.from(data);
  const algorithm = key.length === 32 ? "aes-256-cbc" : "aes-128-cbc";
  const iv = data.subarray(0, 16);
  const body = data.subarray(16);
  try {
    const decipher = createDecipheriv(algorithm, key, iv);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    const decipher = createDecipheriv(algorithm, key, iv).setAutoPadding(false);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  }
}

/** Algorithm 2.B (ISO 32000-2 §7.6.4.3.4): the R6 hash of a password. */
function hashR6(password: Buffer, salt: Uint8Array, userKey: Uint8Array): Buffer {
  let k = createHash("sha256").update(password).update(salt).update(userKey).digest();
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, userKey])));
    const cipher = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = createHash(["sha256", "sha384", "sha512"][sum % 3]!)
      .update(e)
      .digest();
    if (round >= 63 && e[e.length - 1]! <= round + 1 - 32) break;
  }
  return k.subarray(0, 32);
}

/**
 * The file key, when the document opens with an empty user password; null when it needs a password
 * or uses what this does not read (another handler, an unknown revision or crypt filter).
 */
export function emptyPasswordKey(doc: PDFDocument, pdf: typeof PdfLib): FileKey | null {
  const { PDFDict, PDFName, PDFNumber, PDFString, PDFHexString, PDFArray, PDFBool } = pdf;
  const trailer = doc.context.trailerInfo;
  const encrypt = trailer.Encrypt && doc.context.lookup(trailer.Encrypt);
  if (!(encrypt instanceof PDFDict)) return null;
  const name = (key: string) => {
    const value = encrypt.lookup(PDFName.of(key));
    return value instanceof PDFName ? value.decodeText() : undefined;
  };
  const number = (dict: PdfLib.PDFDict, key: string) => {
    const value = dict.lookup(PDFName.of(key));
    return value instanceof PDFNumber ? value.asNumber() : undefined;
  };
  const bytes = (key: string) => {
    const value = encrypt.lookup(PDFName.of(key));
    return value instanceof PDFString || value instanceof PDFHexString ? Buffer.from(value.asBytes()) : undefined;
  };
  if (name("Filter") !== "Standard") return null;
  const v = number(encrypt, "V") ?? 0;
  const r = number(encrypt, "R") ?? 0;
  const o = bytes("O");
  const u = bytes("U");
  const p = number(encrypt, "P");
  if (!o || !u || p === undefined) return null;
  const metadataFlag = encrypt.lookup(PDFName.of("EncryptMetadata"));
  const encryptMetadata = !(metadataFlag instanceof PDFBool) || metadataFlag.asBoolean();

  // Which cipher the crypt filters name (V4 and V5); V1 and V2 use RC4 throughout.
  let strings: Cipher = "rc4";
  let streams: Cipher = "rc4";
  // The key's length in bytes: 40 bits for V1, /Length bits otherwise (128 by default from V4).
  let length = v === 1 ? 5 : Math.floor((number(encrypt, "Length") ?? (v >= 4 ? 128 : 40)) / 8);
  if (v >= 4) {
    const filters = encrypt.lookup(PDFName.of("CF"));
    const cipherOf = (filterName: string | undefined): Cipher | null => {
      if (!filterName || filterName === "Identity") return "identity";
      const filter = filters instanceof PDFDict ? filters.lookup(PDFName.of(filterName)) : undefined;
      if (!(filter instanceof PDFDict)) return null;
      const method = filter.lookup(PDFName.of("CFM"));
      const cfm = method instanceof PDFName ? method.decodeText() : "None";
      if (cfm === "V2") {
        // Writers disagree on this /Length's unit: Acrobat writes bytes (16), the standard says bits.
        const filterLength = number(filter, "Length");
        if (filterLength !== undefined) length = filterLength <= 16 ? filterLength : Math.floor(filterLength / 8);
        return "rc4";
      }
      if (cfm === "AESV2" || cfm === "AESV3") return "aes";
      return cfm === "None" ? "identity" : null;
    };
    const s = cipherOf(name("StrF"));
    const m = cipherOf(name("StmF"));
    if (!s || !m) return null;
    strings = s;
    streams = m;
  } else if (v !== 1 && v !== 2) return null;

  if (r === 5 || r === 6) {
    // AES-256 (V5): the key is kept encrypted in /UE under a key derived from the password.
    const ue = bytes("UE");
    if (u.length < 48 || !ue || ue.length < 32) return null;
    const empty = Buffer.alloc(0);
    const hash = (salt: Uint8Array) =>
      r === 6 ? hashR6(empty, salt, empty) : createHash("sha256").update(salt).digest();
    if (!hash(u.subarray(32, 40)).equals(u.subarray(0, 32))) return null;
    const decipher = createDecipheriv("aes-256-cbc", hash(u.subarray(40, 48)), Buffer.alloc(16)).setAutoPadding(false);
    const key = Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]);
    return { key, perObject: false, strings, streams, encryptMetadata };
  }
  if (r < 2 || r > 4) return null;

  // Algorithm 2 with the empty password (its padding alone), then Algorithm 6 to check it.
  const ids = doc.context.lookup(trailer.ID);
  const first = ids instanceof PDFArray ? ids.lookup(0) : undefined;
  const id =
    first instanceof PDFString || first instanceof PDFHexString ? Buffer.from(first.asBytes()) : Buffer.alloc(0);
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(p | 0);
  const n = r === 2 ? 5 : Math.min(Math.max(length, 5), 16);
  let digest = md5(
    PADDING,
    o.subarray(0, 32),
    permissions,
    id,
    r >= 4 && !encryptMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0),
  );
  if (r >= 3) for (let i = 0; i < 50; i++) digest = md5(digest.subarray(0, n));
  const key = digest.subarray(0, n);
  let check: Buffer;
  if (r === 2) check = rc4(key, PADDING);
  else {
    check = rc4(key, md5(PADDING, id));
    for (let i = 1; i <= 19; i++)
      check = rc4(
        key.map((b) => b ^ i),
        check,
      );
  }
  const matches = r === 2 ? check.equals(u.subarray(0, 32)) : check.subarray(0, 16).equals(u.subarray(0, 16));
  return matches ? { key, perObject: true, strings, streams, encryptMetadata } : null;
}

function objectKey(file: FileKey, ref: PDFRef, cipher: Cipher): Buffer {
  if (!file.perObject) return file.key;
  const id = Buffer.from([
    ref.objectNumber & 0xff,
    (ref.objectNumber >> 8) & 0xff,
    (ref.objectNumber >> 16) & 0xff,
    ref.generationNumber & 0xff,
    (ref.generationNumber >> 8) & 0xff,
  ]);
  const digest = md5(file.key, id, cipher === "aes" ? Buffer.from("sAlT", "latin1") : Buffer.alloc(0));
  return digest.subarray(0, Math.min(file.key.length + 5, 16));
}

function decryptBytes(file: FileKey, ref: PDFRef, cipher: Cipher, data: Uint8Array): Buffer {
  if (cipher === "identity") return Buffer.from(data);
  const key = objectKey(file, ref, cipher);
  return cipher === "aes" ? aesDecrypt(key, data) : rc4(key, data);
}

/**
 * Parse `bytes` again with every string and stream decrypted as it is read (so object streams are
 * unpacked from clear bytes), and return the document without its encryption dictionary.
 */
export async function loadDecrypted(
  bytes: Uint8Array,
  file: FileKey,
  encryptRef: PDFObject | undefined,
  pdf: typeof PdfLib,
): Promise<PDFDocument> {
  const { PDFParser, PDFDict, PDFArray, PDFString, PDFHexString, PDFRawStream, PDFName, PDFRef } = pdf;
  const decryptValue = (value: PDFObject, ref: PDFRef): PDFObject => {
    if (value instanceof PDFString || value instanceof PDFHexString) {
      const clear = decryptBytes(file, ref, file.strings, value.asBytes());
      return PDFHexString.of(clear.toString("hex"));
    }
    if (value instanceof PDFArray) {
      for (let i = 0; i < value.size(); i++) value.set(i, decryptValue(value.get(i), ref));
      return value;
    }
    if (value instanceof PDFDict) {
      for (const [key, inner] of value.entries()) value.set(key, decryptValue(inner, ref));
      return value;
    }
    return value;
  };
  const decryptTop = (value: PDFObject, ref: PDFRef): PDFObject => {
    if (encryptRef instanceof PDFRef && ref.objectNumber === encryptRef.objectNumber) return value;
    if (value instanceof PDFRawStream) {
      const type = value.dict.lookup(PDFName.of("Type"));
      // Cross-reference streams are never encrypted; metadata may be left in the clear.
      if (type === PDFName.of("XRef")) return value;
      decryptValue(value.dict, ref);
      if (type === PDFName.of("Metadata") && !file.encryptMetadata) return value;
      return PDFRawStream.of(value.dict, decryptBytes(file, ref, file.streams, value.contents));
    }
    return decryptValue(value, ref);
  };

  // pdf-lib reads an indirect object as header, object, "endobj", and unpacks an object stream at
  // once. The header names the object whose key decrypts the object read right after it; objects
  // inside an object stream are not encrypted on their own, and are parsed by another class.
  interface ParserSteps {
    parseIndirectObjectHeader(): PDFRef;
    parseObject(): PDFObject;
    parseDocument(): Promise<PdfLib.PDFContext>;
  }
  // pdf-lib keeps these steps private; they are replaced on this one parser (the version is pinned).
  const parser = PDFParser.forBytesWithOptions(bytes, 100, false, false) as unknown as ParserSteps;
  const readHeader = parser.parseIndirectObjectHeader.bind(parser);
  const readObject = parser.parseObject.bind(parser);
  let pending: PDFRef | undefined;
  parser.parseIndirectObjectHeader = () => {
    pending = readHeader();
    return pending;
  };
  parser.parseObject = () => {
    const ref = pending;
    pending = undefined;
    const value = readObject();
    return ref ? decryptTop(value, ref) : value;
  };
  const context = await parser.parseDocument();
  context.trailerInfo.Encrypt = undefined;
  if (encryptRef instanceof PDFRef) context.delete(encryptRef);
  // PDFDocument's constructor is private in its types; load() builds it the same way.
  const Document = pdf.PDFDocument as unknown as new (
    context: PdfLib.PDFContext,
    ignoreEncryption: boolean,
    updateMetadata: boolean,
  ) => PDFDocument;
  return new Document(context, true, false);
}
