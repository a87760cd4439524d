import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { acceptAgentUpload } from "../server/intake/storage.server";
import { clientIp } from "../server/intake/write-store.server";

/**
 * POST /api/agents/discovery/upload: multipart/form-data with docType,
 * blankConfirmed and one file (PDF, JPG or PNG by content, at most 10 MB)
 * -> 200 {key, upload_id, content_type, size_bytes} once stored and recorded.
 */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const upload = await acceptAgentUpload(request, { ip: clientIp(context) });
    return jsonResponse({
      key: upload.key,
      upload_id: upload.uploadId,
      content_type: upload.contentType,
      size_bytes: upload.sizeBytes,
    });
  },
});

export const loader = route.loader;
export const action = route.action;
