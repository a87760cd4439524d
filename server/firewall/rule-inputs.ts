/**
 * Where a URL the service could be made to fetch arrives: values, and the User-Agent among the
 * headers (never Referer or Origin). Shared by the SSRF rules of service-rules.ts and its rounds.
 */
export const SSRF_INPUTS = [
  "server.request.query",
  "server.request.body",
  "server.request.path_params",
  "server.request.cookies",
  { address: "marketplace.request.headers.text", key_path: ["user-agent"] },
  { address: "marketplace.request.headers.text", key_path: ["user-agent~decoded"] },
];
