/**
 * One step per turn of the event loop, across every caller of the same queue (issue 30 item 6).
 *
 * `await queue.next()` resumes one waiting step per turn, after the poll phase has read whatever
 * I/O arrived meanwhile, so a health check is answered between any two steps. A plain
 * `setImmediate` resumes every step that waits in the same turn: 24 requests arriving together
 * held the loop for all 24 before the next I/O was read (80–180 ms on a slow machine). With no one
 * waiting, a step costs one turn (tens of microseconds).
 */
export interface TurnQueue {
  next(): Promise<void>;
}

export function turnQueue(): TurnQueue {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  function release(): void {
    const step = waiting.shift();
    // Scheduled from inside an immediate, the next release waits for the next turn's poll phase.
    if (waiting.length > 0) setImmediate(release);
    else scheduled = false;
    step?.();
  }
  return {
    next() {
      return new Promise((resolve) => {
        waiting.push(resolve);
        if (!scheduled) {
          scheduled = true;
          setImmediate(release);
        }
      });
    },
  };
}
