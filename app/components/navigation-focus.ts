/**
 * Where keyboard focus goes after a client-side navigation (issue 17 item 7,
 * docs/decisions/270-focus-after-navigation.md). One rule for every page,
 * applied by <PageAnnouncer> in app/root.tsx:
 *
 * 1. A navigation that names its own target (`state.focus`, e.g. a drug or
 *    doctor picker after a choice) focuses the first of those ids that is on
 *    the page.
 * 2. A page that answers with an error summary (a failed submit) focuses the
 *    summary; without a summary, the first field marked invalid.
 * 3. A link to a section (`#id`) is left to the browser's scrolling.
 * 4. A new page (another path, or the same path with another title, such as the
 *    next shopping step) focuses its main heading.
 * 5. The same page updated in place (a sort, a filter, paging) keeps focus
 *    where it is; only if the focused element went away does the heading take it.
 */

/** What a navigation may ask for through its history state. */
export interface FocusIntent {
  /** Element ids, in order of preference. */
  focus?: string[];
  /** Words for the live region instead of the page title. */
  announce?: string;
}

export function focusIntent(state: unknown): FocusIntent {
  if (!state || typeof state !== "object") return {};
  const { focus, announce } = state as Record<string, unknown>;
  return {
    focus: Array.isArray(focus) ? focus.filter((id): id is string => typeof id === "string") : undefined,
    announce: typeof announce === "string" ? announce : undefined,
  };
}

export type FocusOutcome = "intent" | "error" | "hash" | "heading" | "kept";

function focusable(element: HTMLElement): HTMLElement {
  // Headings and summaries are not focusable by themselves; -1 keeps them out of the Tab order.
  if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
  return element;
}

export function focusAfterNavigation(args: {
  main: HTMLElement | null;
  intent: FocusIntent;
  hash: string;
  newPage: boolean;
}): FocusOutcome {
  const { main, intent } = args;
  if (!main) return "kept";
  for (const id of intent.focus ?? []) {
    const target = document.getElementById(id);
    if (target) {
      focusable(target).focus();
      return "intent";
    }
  }
  const summary = main.querySelector<HTMLElement>(".error-summary, [data-error-summary]");
  const invalid = summary ? null : main.querySelector<HTMLElement>('[aria-invalid="true"]');
  const problem = summary ?? invalid;
  if (problem) {
    focusable(problem).focus();
    return "error";
  }
  if (args.hash && document.getElementById(decodeURIComponent(args.hash.slice(1)))) return "hash";
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  if (!args.newPage && !lost) return "kept";
  const heading = main.querySelector<HTMLElement>("h1");
  if (!heading) return "kept";
  focusable(heading).focus();
  return "heading";
}
