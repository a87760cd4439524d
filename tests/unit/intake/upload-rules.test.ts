import { describe, expect, it } from "vitest";
import {
  fileSize,
  UPLOAD_LIMIT_BYTES,
  UPLOAD_WORDS,
  uploadFileProblem,
  uploadRefusalWords,
} from "../../../app/lib/upload-rules";
import { MAX_UPLOAD_BYTES, UploadFields } from "../../../app/server/intake/storage.server";
import { ApiError } from "../../../app/server/platform/api.server";

/** Issue 17 item 8: the browser's check before sending, and the page's words for the server's refusals. */
describe("upload rules shared by the browser and the page", () => {
  it("checks against the server's own limit", () => {
    expect(UPLOAD_LIMIT_BYTES).toBe(MAX_UPLOAD_BYTES);
  });

  it("accepts a PDF, JPG or PNG up to exactly 10 MB", () => {
    expect(uploadFileProblem({ name: "intake.pdf", size: UPLOAD_LIMIT_BYTES, type: "application/pdf" })).toBeNull();
    expect(uploadFileProblem({ name: "Scan.JPEG", size: 2_000_000, type: "image/jpeg" })).toBeNull();
    // Some systems send no type, or a generic one: the name decides then.
    expect(uploadFileProblem({ name: "form.png", size: 1000, type: "" })).toBeNull();
  });

  it("refuses 10 MB + 1 byte and says the size in MB", () => {
    const problem = uploadFileProblem({ name: "big.pdf", size: 11 * 1024 * 1024, type: "application/pdf" });
    expect(problem).toBe(`${UPLOAD_WORDS.tooLarge} This one is 11.0 MB.`);
    expect(uploadFileProblem({ name: "big.pdf", size: UPLOAD_LIMIT_BYTES + 1, type: "application/pdf" })).toContain(
      "larger than 10 MB",
    );
  });

  it("refuses other kinds by name or by declared type", () => {
    expect(uploadFileProblem({ name: "notes.txt", size: 20, type: "text/plain" })).toBe(UPLOAD_WORDS.wrongType);
    expect(uploadFileProblem({ name: "notes.pdf", size: 20, type: "text/plain" })).toBe(UPLOAD_WORDS.wrongType);
    expect(uploadFileProblem({ name: "form", size: 20, type: "application/pdf" })).toBe(UPLOAD_WORDS.wrongType);
  });

  it("shows sizes as a person reads them", () => {
    expect(fileSize(11 * 1024 * 1024)).toBe("11.0 MB");
    expect(fileSize(820 * 1024)).toBe("820 KB");
  });

  it("turns the API's codes into the form's words: document types never named by code", () => {
    const parsed = UploadFields.safeParse({ docType: "passport", blankConfirmed: "true" });
    expect(parsed.success).toBe(false);
    // The API message lists codes (for API clients) …
    expect(parsed.error!.issues[0]!.message).toContain("intake_form");
    // … the page does not.
    const words = uploadRefusalWords({
      status: 400,
      code: "validation_failed",
      message: "upload form is invalid",
      fields: { docType: parsed.error!.issues[0]!.message, blankConfirmed: "Confirm that the document is blank." },
    });
    expect(words.errors.docType).toBe("Choose what kind of document it is.");
    expect(Object.values(words.errors).join(" ")).not.toMatch(/intake_form|consent_form|_/);
  });

  it("says a 413 and an unsupported file in words, at the file field", () => {
    const tooLarge = new ApiError(413, "payload_too_large", "The file is larger than 10 MB.");
    expect(uploadRefusalWords(tooLarge)).toEqual({ errors: { file: UPLOAD_WORDS.tooLarge } });
    const wrong = new ApiError(400, "unsupported_file_type", "Only PDF, JPG or PNG files are accepted.", {
      file: "Only PDF, JPG or PNG files are accepted.",
    });
    expect(uploadRefusalWords(wrong)).toEqual({ errors: { file: UPLOAD_WORDS.wrongType } });
    expect(uploadRefusalWords(new ApiError(503, "upload_storage_unavailable", "Try again later."))).toEqual({
      errors: {},
      formError: "Try again later.",
    });
  });
});
