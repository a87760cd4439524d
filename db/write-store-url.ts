/**
 * A PostgreSQL URL made fit for logs. Its own module: write-store-client.ts names the store at
 * start-up without loading the PostgreSQL driver (pg and drizzle's node-postgres, ~50 ms of a
 * start; they load when a postgres:// store is opened, docs/decisions/460).
 */

/** The URL with any password replaced, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable)";
  }
}
