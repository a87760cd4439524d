import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { idempotencyKeyOf } from "../server/intake/idempotency.server";
import { acceptAgentUpload } from "../server/intake/storage.server";
import { clientIp } from "../server/intake/write-store.server";

/**
 * POST /api/agents/discovery/upload: multipart/form-data with docType,
 * blankConfirmed and one file (PDF, JPG or PNG by content, at most 10 MB)
 * -> 200 {key, upload_id, content_type, size_bytes} once stored and recorded.
 * With an Idempotency-Key, the same upload sent again answers as the first did
 * (Idempotent-Replayed: true) and is stored once (decision 503).
 */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const upload = await acceptAgentUpload(request, { ip: clientIp(context), idempotencyKey });
    return jsonResponse(
      {
        key: upload.key,
        upload_id: upload.uploadId,
        content_type: upload.contentType,
        size_bytes: upload.sizeBytes,
      },
      upload.replayed ? { headers: { "idempotent-replayed": "true" } } : undefined,
    );
  },
});

export const loader = route.loader;
export const action = route.action;
