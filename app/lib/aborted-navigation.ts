/**
 * A navigation that a newer one replaced (Back and Forward pressed quickly, a filter changed
 * again) is aborted by the router, and the data request it had started rejects with the abort.
 * The router has moved on and nobody waits for it: that is not an error of the page, so the
 * browser is told the rejection is handled. Any other rejection is left as it is.
 */
export function ignoreAbortedNavigation(event: Pick<PromiseRejectionEvent, "reason" | "preventDefault">): void {
  const reason: unknown = event.reason;
  if (reason instanceof DOMException && reason.name === "AbortError") event.preventDefault();
}
