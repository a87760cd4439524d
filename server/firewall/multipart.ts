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

export function readMultipartFields(body: Buffer, headers: IncomingHttpHeaders): Promise<MultipartFields> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        defParamCharset: "utf8",
        limits: { fieldSize: 1024 * 1024, fields: 1_000, files: 20, parts: 1_100 },
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
    parser.on("error", (error: Error) => reject(new MalformedMultipartError(error.message)));
    parser.on("close", () => resolve({ fields }));
    try {
      parser.end(body);
    } catch (error) {
      reject(new MalformedMultipartError((error as Error).message));
    }
  });
}
