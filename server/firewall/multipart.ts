import type { IncomingHttpHeaders } from "node:http";
import busboy from "busboy";

/**
 * The text fields of a multipart/form-data body, read with busboy (the same
 * parser the upload route uses), so the firewall inspects exactly the names
 * and values a route would read. File parts are skipped: their bytes are not
 * text and are checked by the upload route itself (decoded, re-encoded or
 * refused); only the file name is kept as a field `<name>.filename`.
 */
export interface MultipartFields {
  fields: Array<[string, string]>;
}

export class MalformedMultipartError extends Error {
  readonly status = 400;
}

/**
 * The most fields (text fields, and parts of any kind) a form may carry
 * (issue 30 item 6, docs/decisions/375). No form of the service has more
 * than a few hundred; past this a body is refused with 413 as soon as the
 * limit is seen, before the rest is parsed.
 */
export const MAX_FORM_FIELDS = 1_000;
export const MAX_FORM_PARTS = MAX_FORM_FIELDS + 20;

/** A form over MAX_FORM_FIELDS (or parts): refused with 413, naming the limit. */
export class TooManyFieldsError extends Error {
  readonly status = 413;
  constructor() {
    super(`The form has more than ${MAX_FORM_FIELDS.toLocaleString("en-US")} fields; send at most that many.`);
  }
}

/** How many fields a URL-encoded form body carries: one more than its `&` separators (no parsing). */
export function formFieldCount(body: Buffer): number {
  let count = 1;
  let at = body.indexOf(0x26);
  while (at !== -1) {
    count++;
    if (count > MAX_FORM_FIELDS) return count;
    at = body.indexOf(0x26, at + 1);
  }
  return count;
}

/** Bytes handed to busboy at a time, so that a body past the limits stops being read at once. */
const SLICE_BYTES = 64 * 1024;

export function readMultipartFields(body: Buffer, headers: IncomingHttpHeaders): Promise<MultipartFields> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        defParamCharset: "utf8",
        limits: { fieldSize: 1024 * 1024, fields: MAX_FORM_FIELDS, files: 20, parts: MAX_FORM_PARTS },
      });
    } catch (error) {
      reject(new MalformedMultipartError((error as Error).message));
      return;
    }
    const fields: Array<[string, string]> = [];
    // busboy gives `name=""` as undefined.
    parser.on("field", (name, value) => fields.push([name ?? "", value]));
    parser.on("file", (name, stream, info) => {
      if (info.filename) fields.push([`${name ?? ""}.filename`, info.filename]);
      // A truncated part fails its stream as well as the parser: the parser's error answers.
      stream.on("error", () => undefined);
      stream.resume();
    });
    // busboy drops what is past its limits without a word; a route parsing the same body would
    // not. Past a limit the body is refused, and no more of it is parsed.
    let stopped = false;
    const tooMany = () => {
      stopped = true;
      reject(new TooManyFieldsError());
    };
    parser.on("fieldsLimit", tooMany);
    parser.on("partsLimit", tooMany);
    parser.on("filesLimit", tooMany);
    parser.on("error", (error: Error) => {
      stopped = true;
      reject(new MalformedMultipartError(error.message));
    });
    parser.on("close", () => {
      if (!stopped) resolve({ fields });
    });
    try {
      for (let at = 0; at < body.length && !stopped; at += SLICE_BYTES)
        parser.write(body.subarray(at, Math.min(body.length, at + SLICE_BYTES)));
      if (!stopped) parser.end();
    } catch (error) {
      stopped = true;
      reject(new MalformedMultipartError((error as Error).message));
    }
  });
}
