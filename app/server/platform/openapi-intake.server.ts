import { MAX_UPLOAD_BYTES, ONLY_PDF_JPG_PNG } from "../intake/storage.server";
import { BODY_ERRORS, error, json, jsonBody, ref, type Json } from "./openapi-parts.server";

/**
 * The intake routes' part of the OpenAPI document (./openapi.server.ts): waitlist, agent discovery
 * and its upload, unsubscribe, enrollment applications. Split from the document by job; the
 * request and answer schemas they name are the document's components.
 */

/** The Idempotency-Key request header of the writes that make a record (decision 495). */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "A key of the client's own (1 to 255 visible ASCII characters, such as a UUID; a quoted string is read without its quotes). Sent again with the same request, after a lost answer or a 503 saying the outcome is unknown, the answer is the first request's and nothing is saved twice. An enrollment application's access token is derived from the key, so keep it as secret as the token.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

/** The intake paths, as the document's `paths` holds them. */
export function intakePaths(): Json {
  return {
    "/api/waitlist": {
      post: {
        tags: ["Intake"],
        summary: "Join the waitlist (answers after the commit)",
        operationId: "postWaitlist",
        description:
          "Saves the address with its interest and queues the confirmation email; answers only after the write is committed. The same address and interest again answers the same id.",
        requestBody: jsonBody("WaitlistRequest", { email: "pat@example.com", zip: "75201", interest: "consumer" }),
        responses: {
          "200": json("WaitlistResponse", "Saved (or already on the list)"),
          ...BODY_ERRORS,
          "500": error("Write store missing or unusable (write_store_unavailable, naming DATABASE_URL)"),
          "503": error(
            "Write store unreachable for now (write_store_unavailable; Retry-After): nothing was saved. After 5 s without an answer from the store the message says instead that the outcome is unknown",
          ),
        },
      },
    },
    "/api/agents/discovery": {
      post: {
        tags: ["Intake"],
        summary: "Agent discovery form",
        operationId: "postAgentDiscovery",
        description:
          "Saves a licensed agent's answers with the consent version they agreed to, and queues the confirmation emails.",
        parameters: [IDEMPOTENCY_KEY],
        requestBody: jsonBody("AgentDiscoveryRequest"),
        responses: {
          "200": {
            ...json("DiscoveryResponse", "Saved (or saved before, with the same Idempotency-Key)"),
            headers: { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } },
          },
          ...BODY_ERRORS,
          "422": error("The Idempotency-Key was already used for a different request (idempotency_key_reused)"),
          "500": error("Write store missing or unusable (write_store_unavailable)"),
          "503": error(
            "Write store unreachable for now (write_store_unavailable; Retry-After): nothing was saved. After 5 s without an answer from the store the message says instead that the outcome is unknown",
          ),
        },
      },
    },
    "/api/agents/discovery/upload": {
      post: {
        tags: ["Intake"],
        summary: "Upload one blank PDF, JPG or PNG document",
        operationId: "postAgentDiscoveryUpload",
        description:
          "One blank form an agent uses today, as PDF, JPG or PNG (checked by content, not by name). With an Idempotency-Key, the same upload sent again (same fields, file name and bytes) answers as the first did and is stored once.",
        parameters: [IDEMPOTENCY_KEY],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                allOf: [
                  ref("AgentUploadFields"),
                  {
                    type: "object",
                    required: ["file"],
                    properties: {
                      file: {
                        type: "string",
                        format: "binary",
                        description: `PDF, JPG or PNG by content, at most ${MAX_UPLOAD_BYTES} bytes`,
                      },
                    },
                  },
                ],
              },
            },
          },
        },
        responses: {
          "200": {
            ...json(
              "UploadResponse",
              "Stored under agent-survey-uploads/ (or stored before, with the same Idempotency-Key)",
            ),
            headers: { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } },
          },
          "400": error(
            `${ONLY_PDF_JPG_PNG} (unsupported_file_type); a PDF that cannot be read (unreadable_pdf) or is password-protected (encrypted_pdf); an image that does not decode (unreadable_image); or invalid fields (validation_failed)`,
          ),
          "405": error("Wrong method"),
          "413": error("File over the limit (payload_too_large)"),
          "415": error("Not multipart/form-data"),
          "422": error("The Idempotency-Key was already used for a different request (idempotency_key_reused)"),
          "500": error("Write store missing or unusable (write_store_unavailable)"),
          "503": error(
            "Storage unavailable or not answering within 15 s (upload_storage_unavailable; Retry-After), write store unreachable for now (write_store_unavailable; Retry-After), or the server already holding as many uploads as it may, the file not read (uploads_busy; Retry-After)",
          ),
        },
      },
    },
    "/api/unsubscribe": {
      parameters: [
        {
          name: "email",
          in: "query",
          required: false,
          schema: { type: "string" },
          description: "The address (may also come in the body)",
        },
        {
          name: "token",
          in: "query",
          required: false,
          schema: { type: "string" },
          description:
            'base64url (no padding) of HMAC-SHA256, keyed with UNSUBSCRIBE_TOKEN_SECRET, of "unsubscribe:v1:" followed by the address trimmed and lower-cased',
        },
      ],
      get: {
        tags: ["Intake"],
        summary: "Open an unsubscribe link: redirect to the confirmation page (nothing changes)",
        operationId: "getUnsubscribe",
        description:
          "The List-Unsubscribe link of every email. Opened in a browser it redirects to the confirmation page; nothing changes until the POST.",
        responses: {
          "303": {
            description: "To /unsubscribe?email=&token=",
            headers: { Location: { $ref: "#/components/headers/Location" } },
          },
          "400": error("Missing or wrong token (invalid_unsubscribe_link)"),
          "503": error("UNSUBSCRIBE_TOKEN_SECRET not set (unsubscribe_unavailable)"),
        },
      },
      post: {
        tags: ["Intake"],
        summary: "Unsubscribe (RFC 8058 one-click: body List-Unsubscribe=One-Click)",
        operationId: "postUnsubscribe",
        description:
          "Stops every email to the address. Idempotent. The address and token may come in the query string or the body.",
        requestBody: {
          required: false,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                properties: {
                  "List-Unsubscribe": { type: "string", enum: ["One-Click"] },
                  email: { type: "string" },
                  token: { type: "string" },
                },
              },
            },
            "application/json": {
              schema: { type: "object", properties: { email: { type: "string" }, token: { type: "string" } } },
            },
          },
        },
        responses: {
          "200": json("UnsubscribeResponse", "Unsubscribed (idempotent)"),
          "400": error("Missing or wrong token (invalid_unsubscribe_link)"),
          "503": error("UNSUBSCRIBE_TOKEN_SECRET not set (unsubscribe_unavailable)"),
        },
      },
    },
    "/api/enroll/applications": {
      post: {
        tags: ["Intake"],
        summary: "Submit an enrollment application for a plan offered at the place",
        operationId: "postEnrollmentApplication",
        description:
          "Stores the application (plan offered at the place in the year, household, contact, attestation) and answers its id and a one-time access token.",
        parameters: [IDEMPOTENCY_KEY],
        requestBody: jsonBody("EnrollmentApplicationRequest"),
        responses: {
          "201": {
            ...json(
              "EnrollmentCreatedResponse",
              "Received (or received before, with the same Idempotency-Key); Location names the application",
            ),
            headers: {
              Location: { $ref: "#/components/headers/Location" },
              "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" },
            },
          },
          ...BODY_ERRORS,
          "422": error("The Idempotency-Key was already used for a different request (idempotency_key_reused)"),
          "500": error("Write store missing or unusable (write_store_unavailable)"),
          "503": error(
            "Plan store unreadable (plan_store_unavailable), or write store unreachable for now (write_store_unavailable; Retry-After)",
          ),
        },
      },
    },
    "/api/enroll/applications/{applicationId}": {
      get: {
        tags: ["Intake"],
        summary: "Read an application back with its access token",
        operationId: "getEnrollmentApplication",
        description:
          "Reads a stored application back; the access token from the creation answer goes in the Authorization header as a bearer token.",
        parameters: [
          {
            name: "applicationId",
            in: "path",
            required: true,
            description: "The application_id of the creation answer; any other id is answered 404",
            schema: { type: "string", pattern: "^[0-9a-f]{24}$" },
          },
        ],
        security: [{ applicationToken: [] }],
        responses: {
          "200": json("EnrollmentApplicationResponse", "The application"),
          "401": error("No token (access_token_required)"),
          "403": error("Another application's token (access_denied)"),
          "404": error("Unknown id"),
        },
      },
    },
  };
}
