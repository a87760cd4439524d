/**
 * Time limits on work that cannot be cancelled: a query on a connection to a database that hangs,
 * a write to a file system or bucket that does not answer. The caller stops waiting; the work goes
 * on and may still finish (or fail) later, which the caller must allow for.
 */

/** The work did not finish within its time. */
export class DeadlineExceeded extends Error {
  constructor(
    what: string,
    readonly ms: number,
  ) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "DeadlineExceeded";
  }
}

/**
 * `work`'s outcome, or a DeadlineExceeded after `ms`. A failure of `work` after the deadline is
 * not an unhandled rejection (the race has subscribed to it); a caller that wants to know how the
 * work ended keeps its own reference.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
