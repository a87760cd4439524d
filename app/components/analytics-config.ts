/**
 * The public subset of analytics settings the browser receives (from the
 * root loader, built by browserAnalyticsSettings() in analytics.server.ts).
 * `token` is null when analytics is off (no POSTHOG_API_KEY, or DEPLOY_ENV
 * staging).
 */
export interface BrowserAnalyticsConfig {
  token: string | null;
  host: string;
  optOutHosts: string[];
}
