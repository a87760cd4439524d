/**
 * What the agent upload form accepts, in words a person reads: shared by the
 * browser's check before sending (app/components/intake/upload-form.tsx) and
 * the page's answer after the server refused (app/routes/agent-discovery.tsx),
 * so both say the same thing. Runs in the browser: no server imports.
 * The server's own checks (app/server/intake/storage.server.ts) stay the
 * authority; these only spare a 10 MB round trip.
 */

/** 10 MiB, as app/server/intake/storage.server.ts MAX_UPLOAD_BYTES. */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
export const UPLOAD_LIMIT_MB = UPLOAD_LIMIT_BYTES / (1024 * 1024);

const ACCEPTED_EXTENSIONS = ["pdf", "jpg", "jpeg", "png"];
const ACCEPTED_TYPES = ["application/pdf", "image/jpeg", "image/png"];

export const UPLOAD_WORDS = {
  noFile: "Choose the file to send: a PDF, JPG or PNG.",
  docType: "Choose what kind of document it is.",
  blank: "Tick the box to confirm the document is blank: it must not contain any client's information.",
  wrongType: "Only PDF, JPG or PNG files are accepted. Save or scan the form as one of those and choose it again.",
  busy: "We are receiving many files right now, so this one was not sent and nothing was stored. Wait a few seconds, choose the file again and press Upload.",
  tooLarge: `The file is larger than ${UPLOAD_LIMIT_MB} MB. Choose a smaller file: scan fewer pages, or at a lower resolution.`,
} as const;

/** "11.0 MB", "820 KB": the size as a person reads it. */
export function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** What is wrong with a chosen file before it is sent, or null. By name and declared type; the server reads the content. */
export function uploadFileProblem(file: { name: string; size: number; type: string }): string | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? "";
  const typeKnown = file.type !== "" && file.type !== "application/octet-stream";
  const acceptedType = typeKnown ? ACCEPTED_TYPES.includes(file.type.toLowerCase()) : true;
  if (!ACCEPTED_EXTENSIONS.includes(extension) || !acceptedType) return UPLOAD_WORDS.wrongType;
  if (file.size > UPLOAD_LIMIT_BYTES) return `${UPLOAD_WORDS.tooLarge} This one is ${fileSize(file.size)}.`;
  if (file.size === 0) return UPLOAD_WORDS.noFile;
  return null;
}

/**
 * The server's refusal as the page says it: an API error's code and fields
 * (which name document types by their codes, for API clients) turned into the
 * form's words. Returns field errors keyed as the form's fields, or a form-wide message.
 */
export function uploadRefusalWords(refusal: {
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
}): { errors: Record<string, string>; formError?: string } {
  if (refusal.status === 413) return { errors: { file: UPLOAD_WORDS.tooLarge } };
  if (refusal.code === "unsupported_file_type") return { errors: { file: UPLOAD_WORDS.wrongType } };
  // A PDF that could not be read or is password-protected: the server's words say which (decision 373).
  if (refusal.code === "unreadable_pdf" || refusal.code === "encrypted_pdf" || refusal.code === "unreadable_image")
    return { errors: { file: refusal.message } };
  if (refusal.fields) {
    const errors: Record<string, string> = {};
    for (const [name, message] of Object.entries(refusal.fields)) {
      errors[name] =
        name === "docType"
          ? UPLOAD_WORDS.docType
          : name === "blankConfirmed"
            ? UPLOAD_WORDS.blank
            : name === "file"
              ? UPLOAD_WORDS.noFile
              : message;
    }
    return { errors };
  }
  return { errors: {}, formError: refusal.message };
}
