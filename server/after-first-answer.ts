import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * Start-up work no answer waits for (issue 29, docs/decisions/461): opening the write store and
 * resuming the outbox, checking the ACA parameter file, the patch warnings. It ran before the
 * first answer (the write store in the `listening` handler, the parameter file when the server
 * build was loaded) and so added to the time until a balancer's first health check is answered.
 *
 * Each task starts once the first answer has been written, or `idleMs` after listening when no
 * answer has been written by then (nobody asked, or the first request is slow), whichever comes
 * first; one task a turn of the event loop, so a request arriving meanwhile is read between them.
 * Whatever a task prepares must also be prepared by its first user when that comes first (the
 * write store opens itself on the first write; the parameter file is checked on first use):
 * nothing may depend on the task having run.
 */
export interface StartupTask {
  name: string;
  run: () => unknown;
}

/** A task's failure (a thrown error or a rejected promise) is passed here; the other tasks still run. */
export type StartupTaskFailure = (name: string, error: unknown) => void;

export const AFTER_FIRST_ANSWER_IDLE_MS = 200;

export function afterFirstAnswer(
  server: Server,
  tasks: readonly StartupTask[],
  onFailure: StartupTaskFailure,
  idleMs: number = AFTER_FIRST_ANSWER_IDLE_MS,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let started = false;
    let idle: NodeJS.Timeout | undefined;
    const onRequest = (_req: IncomingMessage, res: ServerResponse) => {
      res.once("finish", start);
      res.once("close", start);
    };
    const start = () => {
      if (started) return;
      started = true;
      if (idle) clearTimeout(idle);
      server.off("request", onRequest);
      runOneByOne(tasks, onFailure).then(resolve, resolve);
    };
    server.on("request", onRequest);
    server.once("listening", () => {
      idle = setTimeout(start, idleMs);
    });
    // Stopped before it started (a shutdown at once): nothing to do.
    server.once("close", () => {
      if (!started) {
        started = true;
        if (idle) clearTimeout(idle);
        server.off("request", onRequest);
        resolve();
      }
    });
  });
}

async function runOneByOne(tasks: readonly StartupTask[], onFailure: StartupTaskFailure): Promise<void> {
  for (const task of tasks) {
    // Its own turn: requests read since the last task are answered first.
    await new Promise<void>((next) => setImmediate(next));
    try {
      await task.run();
    } catch (error) {
      onFailure(task.name, error);
    }
  }
}
