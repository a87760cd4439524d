/**
 * Autocomplete sends a request on every keystroke from the third character;
 * answers can come back out of order. `LatestRequest` lets only the answer to
 * the newest request through: each new request aborts the one before, and an
 * answer that still arrives for an older request is dropped, so a stale list
 * never overwrites a newer one. Pure (no React): unit-tested on its own.
 */
export class LatestRequest<T> {
  private sequence = 0;
  private controller: AbortController | null = null;

  /** Start a request; `onAnswer` / `onError` run only if it is still the newest when it settles. */
  run(
    send: (signal: AbortSignal) => Promise<T>,
    onAnswer: (answer: T) => void,
    onError: (error: unknown) => void = () => {},
  ): void {
    const id = ++this.sequence;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    let pending: Promise<T>;
    try {
      pending = send(controller.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (answer) => {
        if (id === this.sequence) onAnswer(answer);
      },
      (error) => {
        if (id === this.sequence && !controller.signal.aborted) onError(error);
      },
    );
  }

  /** Forget whatever is in flight (the text became too short, the list closed). */
  cancel(): void {
    this.sequence++;
    this.controller?.abort();
    this.controller = null;
  }
}
