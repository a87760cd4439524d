/**
 * What a write-store failure may say in a log, and whether it means the
 * engine is out of reach. Drizzle wraps a failed query in an error whose
 * message (and stack) carries the query's parameters: submitted email
 * addresses, names, phone numbers. Nothing here ever returns those: a log
 * line gets the engine's error code and, for connection failures and SQLite,
 * the engine's own message (which names no values); for a PostgreSQL error
 * about the data, only its code and the constraint, table and column names.
 */

interface EngineError {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  cause?: unknown;
  params?: unknown;
  query?: unknown;
}

/** The engine's error under drizzle's wrapper (DrizzleQueryError keeps it as `cause`). */
export function engineError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const e = current as EngineError | null;
    if (!e || typeof e !== "object") return current;
    const wrapped = "params" in e || "query" in e || (e.name === "DrizzleError" && e.cause);
    if (!wrapped || !e.cause) return current;
    current = e.cause;
  }
  return current;
}

/** Node socket errors and pg's own words for a connection that is gone or never came. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);
const CONNECTION_WORDS =
  /connection terminated|terminating connection|not queryable|timeout exceeded when trying to connect|connection (?:error|refused|ended|closed)|server closed the connection|cannot use a pool after calling end|the database system is (?:starting up|shutting down|in recovery mode)|write store probe timed out/i;

/**
 * True when the failure says the engine cannot be reached or is restarting
 * (not that the data was wrong): PostgreSQL SQLSTATE class 08 (connection
 * exception), 57P01-57P03 (shut down, crashed, cannot connect now), 53300
 * (too many connections), socket errors, and pg's connection messages.
 */
export function isConnectionFailure(error: unknown): boolean {
  const e = engineError(error) as EngineError | null;
  if (!e || typeof e !== "object") return false;
  const code = typeof e.code === "string" ? e.code : "";
  if (NETWORK_CODES.has(code)) return true;
  if (/^08/.test(code) || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300") return true;
  if (typeof e.message === "string" && CONNECTION_WORDS.test(e.message)) return true;
  // AggregateError (several addresses refused) and errors that wrap another.
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.some(isConnectionFailure)) return true;
  return false;
}

/**
 * True when trying again shortly may work: a connection failure, or
 * PostgreSQL's serialization failure, deadlock, statement timeout or lack of
 * resources, or SQLite's busy/locked.
 */
export function isTransientFailure(error: unknown): boolean {
  if (isConnectionFailure(error)) return true;
  const e = engineError(error) as EngineError | null;
  const code = e && typeof e === "object" && typeof e.code === "string" ? e.code : "";
  return /^(40001|40P01|57014|53\d\d\d|55P03)$/.test(code) || /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * True when the engine is reachable but cannot write for now: its disk is full, its file or
 * directory cannot be written (a volume remounted read-only, permissions changed), or its storage
 * failed (docs/decisions/509). SQLite's FULL, IOERR, READONLY, CANTOPEN and NOMEM; the file
 * system's EACCES, EROFS, ENOSPC and kin (docs/decisions/519); PostgreSQL's
 * class 53 (insufficient resources: disk full, out of memory) and 58 (system error: I/O). Nothing
 * was written, the request did nothing wrong, and the same write may pass once an operator frees
 * room: a 503 with Retry-After, not the 500 of a write the data itself broke.
 */
/** The file system refusing a SQLite store's directory or file (creating data/, decision 519). */
const FILE_SYSTEM_REFUSALS = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "EIO", "EMFILE", "ENFILE"]);

export function isResourceFailure(error: unknown): boolean {
  const e = engineError(error) as EngineError | null;
  const code = e && typeof e === "object" && typeof e.code === "string" ? e.code : "";
  return (
    /^(53\d\d\d|58\d\d\d|58P0\d)$/.test(code) ||
    /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|NOMEM)/.test(code) ||
    FILE_SYSTEM_REFUSALS.has(code)
  );
}

/**
 * True when the server refused to write because it is read-only: PostgreSQL's 25006
 * (read_only_sql_transaction). After a failover the old primary goes on as a standby and answers
 * every write this way on the connections still open to it; a server put in read-only mode for
 * maintenance (default_transaction_read_only) does too (docs/decisions/515). Nothing was written.
 */
export function isReadOnlyFailure(error: unknown): boolean {
  const e = engineError(error) as EngineError | null;
  return !!e && typeof e === "object" && e.code === "25006";
}

/**
 * A log-safe description of a store failure: never the query's parameters,
 * never a value from the row. `{ err, code? }` for a log line's fields.
 */
export function describeStoreError(error: unknown): { err: string; code?: string } {
  const e = engineError(error) as EngineError | null;
  if (!e || typeof e !== "object") return { err: typeof e === "string" ? "store error (text withheld)" : String(e) };
  const code = typeof e.code === "string" ? e.code : undefined;
  const name = typeof e.name === "string" ? e.name : "Error";
  const message = typeof e.message === "string" ? e.message : "";
  // Connection failures and SQLite's messages name addresses, codes and tables, never values.
  if (isConnectionFailure(e) || /^SQLITE_/.test(code ?? "") || name === "SqliteError") {
    return { err: scrub(message.slice(0, 300)), ...(code ? { code } : {}) };
  }
  if (typeof e.severity === "string") {
    // A PostgreSQL error about the data: its message may quote a value ("invalid input syntax … "x"").
    const names = [e.constraint, e.table, e.column].filter((n): n is string => typeof n === "string");
    return {
      err: `PostgreSQL ${e.severity} ${code ?? ""}${names.length ? ` (${names.join(", ")})` : ""}`.trim(),
      code,
    };
  }
  // Anything else (a bug in our code, a pool error): its message, with anything that looks like an address scrubbed.
  return { err: scrub(`${name}: ${message}`.slice(0, 300)), ...(code ? { code } : {}) };
}

/** Email addresses and long digit runs (phone numbers) out of a message, whatever produced it. */
export function scrub(text: string): string {
  return text
    .replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+/g, "[address]")
    .replace(/\+?\d[\d\s().-]{6,}\d/g, (run) => (/^\d{1,3}(\.\d{1,3}){3}$/.test(run) ? run : "[digits]"));
}

/**
 * For a catch-all log line (an unhandled route error): a store failure as describeStoreError
 * says it; anything else its stack with addresses and digit runs scrubbed.
 */
export function loggableError(error: unknown): string {
  if (error && typeof error === "object" && engineError(error) !== error) {
    const { err, code } = describeStoreError(error);
    return code ? `${err} [${code}]` : err;
  }
  if (error instanceof Error) return scrub(error.stack ?? `${error.name}: ${error.message}`);
  return scrub(String(error));
}
