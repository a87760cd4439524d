import {
  createElement,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
} from "react";
import { sameProps, useHydrating } from "./kept-markup";

/**
 * Parts of a page that work as plain HTML without JavaScript (a GET form, links) and become live
 * only once used (issue 29 item 4, decision 440): the results page's filters, pickers, household
 * line, repayment-risk form and pager.
 *
 * The server renders the part in a `<div>` (`display: contents`) inside a Suspense boundary. While
 * the browser hydrates the document, the part is a lazy component that waits for its first use, so
 * React keeps the server's markup as a dehydrated boundary and its code is not loaded. The code loads
 * when the visitor points at, touches or focuses the part, when its props change from those the
 * server drew with (a tick, a new list), or when the page asks (`preload()`: a client-side
 * navigation); React then hydrates the same elements in place — focus, a caret and a choice made
 * meanwhile stay. The part is hydrated with the server's props and gets the new ones once live.
 *
 * What the visitor did before the part was live is done again once it is: a changed control's
 * value is set back (the part's effects may have written the URL's values) and its `change`
 * dispatched, a text box typed in gets its `input` again, and a plain left click on a link or button (held back meanwhile) clicked again. If the
 * code cannot load, the part stays the plain HTML it is and a held click goes ahead natively.
 */

/** A part made live on use; `preload()` loads its code ahead and makes it live. */
export type LivePart<P> = ComponentType<P> & { preload(): Promise<void> };

const USE_EVENTS = ["pointerover", "pointerdown", "touchstart", "focusin"] as const;

interface Held {
  changed: Map<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, string | boolean>;
  /** Text boxes typed in: their `input` is sent again (a picker's suggestions). */
  typed: Set<HTMLInputElement | HTMLTextAreaElement>;
  click: HTMLElement | null;
}

/** A plain left click on a link or a button, which the live part would handle itself. */
function heldClickTarget(event: MouseEvent): HTMLElement | null {
  if (event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const target = event.target instanceof Element ? event.target.closest<HTMLElement>("a[href], button") : null;
  if (!target || (target.getAttribute("target") ?? "_self") !== "_self" || target.hasAttribute("download")) return null;
  return target;
}

/**
 * Listens for the part's first use and holds what is done before it is live; returns the undo.
 * On the window, in the capture phase: React stops the events that reach a part it has not
 * hydrated yet at the document (it replays some of them once hydrated).
 */
function watchUse(div: HTMLDivElement, wake: () => void, held: Held): () => void {
  const inPart = (event: Event) => event.target instanceof Node && div.contains(event.target);
  const onUse = (event: Event) => {
    if (inPart(event)) wake();
  };
  const onChange = (event: Event) => {
    const control = event.target;
    if (!inPart(event)) return;
    if (
      control instanceof HTMLInputElement ||
      control instanceof HTMLSelectElement ||
      control instanceof HTMLTextAreaElement
    ) {
      const checkable = control instanceof HTMLInputElement && /^(checkbox|radio)$/.test(control.type);
      held.changed.set(control, checkable ? control.checked : control.value);
    }
  };
  const onInput = (event: Event) => {
    const box = event.target;
    if (!inPart(event)) return;
    if (box instanceof HTMLTextAreaElement || (box instanceof HTMLInputElement && !/^(checkbox|radio)$/.test(box.type)))
      held.typed.add(box);
  };
  const onClick = (event: MouseEvent) => {
    if (!inPart(event)) return;
    const target = heldClickTarget(event);
    if (!target || event.defaultPrevented) return;
    event.preventDefault();
    held.click = target;
    wake();
  };
  const options = { capture: true, passive: true };
  for (const type of USE_EVENTS) window.addEventListener(type, onUse, options);
  window.addEventListener("change", onChange, true);
  window.addEventListener("input", onInput, true);
  window.addEventListener("click", onClick, true);
  return () => {
    for (const type of USE_EVENTS) window.removeEventListener(type, onUse, options);
    window.removeEventListener("change", onChange, true);
    window.removeEventListener("input", onInput, true);
    window.removeEventListener("click", onClick, true);
  };
}

/** Once live: the changes made meanwhile set back and sent again, then the held click. */
function replay(held: Held): void {
  for (const [control, value] of held.changed) {
    if (!control.isConnected) continue;
    if (typeof value === "boolean") (control as HTMLInputElement).checked = value;
    else control.value = value;
    control.dispatchEvent(new Event("change", { bubbles: true }));
  }
  held.changed.clear();
  for (const box of held.typed) {
    if (!box.isConnected) continue;
    // React sends `input` on to a handler only when the value differs from the one it last saw
    // (its value tracker, set through the element's own setter): set that apart, then the text.
    const { value, selectionStart, selectionEnd } = box;
    box.value = "";
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(box) as object, "value")?.set?.call(box, value);
    if (selectionStart !== null) box.setSelectionRange(selectionStart, selectionEnd); // not on a number box
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }
  held.typed.clear();
  const click = held.click;
  held.click = null;
  if (click?.isConnected) click.click();
}

export function liveOnUse<P extends object>(load: () => Promise<ComponentType<P>>, className: string): LivePart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  let open: () => void = () => {};
  const used = new Promise<void>((resolve) => (open = resolve));
  const preload = () => {
    open();
    return (loading ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  };

  function Live({ props, onLive }: { props: P; onLive: () => void }) {
    // After the commit that hydrated (or drew) the part, its own effects included.
    useEffect(onLive, [onLive]);
    return createElement(loaded!, props);
  }
  // Waits for the first use; code that does not load leaves the server's markup as it is.
  const Waiting = lazy(() =>
    used.then(preload).then(
      () => ({ default: Live }),
      () => new Promise<never>(() => {}),
    ),
  );

  function LiveOnUse(props: P) {
    const hydrating = useHydrating();
    // The props the server drew with: only while hydrating the server's document.
    const [serverProps] = useState<P | null>(() => (hydrating ? props : null));
    const [live, setLive] = useState(serverProps === null);
    // Drawn by the browser itself with its code in (a client-side navigation): drawn at once.
    const [direct] = useState(() => serverProps === null && typeof document !== "undefined" && loaded !== null);
    const held = useRef<Held>({ changed: new Map(), typed: new Set(), click: null });
    const undo = useRef<(() => void) | null>(null);

    // The server, a part the browser draws itself, and a part whose props changed need the code now.
    if (serverProps === null || (!live && !sameProps(serverProps, props))) void preload().catch(() => {});
    const onLive = useCallback(() => setLive(true), []);
    // Once live, after the render the part's own effects asked for (the filters listen for changes
    // only once they know they are hydrated): what was done meanwhile, done again.
    useEffect(() => {
      if (!live) return;
      undo.current?.();
      undo.current = null;
      replay(held.current);
    }, [live]);
    const watch = useCallback(
      (div: HTMLDivElement | null) => {
        if (!div || live) return;
        undo.current = watchUse(
          div,
          () =>
            void preload().catch(() => {
              // Not live after all: the plain HTML part does what was asked.
              undo.current?.();
              undo.current = null;
              held.current.click?.click();
            }),
          held.current,
        );
      },
      // Set once, at the first render.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [],
    );
    useEffect(() => () => undo.current?.(), []);

    // Until live, the very same element: an update reaching a boundary React has not hydrated yet
    // would make it drop the server's markup.
    const waiting = useMemo(
      () => (
        <Suspense fallback={null}>
          <Waiting props={serverProps!} onLive={onLive} />
        </Suspense>
      ),
      [serverProps, onLive],
    );
    return (
      <div className={className} ref={watch}>
        {direct ? (
          createElement(loaded!, props)
        ) : live ? (
          <Suspense fallback={null}>
            <Waiting props={props} onLive={onLive} />
          </Suspense>
        ) : (
          waiting
        )}
      </div>
    );
  }
  return Object.assign(LiveOnUse, { preload });
}
