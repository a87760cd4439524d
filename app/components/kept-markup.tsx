import {
  createElement,
  lazy,
  Suspense,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type FunctionComponent,
} from "react";

/**
 * Parts of a page that only show what the server worked out (the income what-if chart, how the
 * yearly cost is worked out) and do nothing in the browser: their code loads only when the browser
 * has to draw them itself (issue 29 item 4, decision 406).
 *
 * The server renders the component inside a <div>. While hydrating the document the browser
 * renders that <div> with an empty `dangerouslySetInnerHTML` instead: React keeps the server's
 * markup in it as it is, and the component's code is not loaded. The component is loaded and drawn
 * (in place of the kept markup) only when its props differ from those the server drew with, or
 * where the part was not in the server's document (a client-side navigation to the page).
 */

const noSubscription = () => () => {};

/**
 * True on the server and while the browser hydrates the server's document (React reads the
 * server snapshot then); false in the browser's own renders.
 */
export function useServerDrawn(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/** True while the browser hydrates the server's document. */
export function useHydrating(): boolean {
  return useServerDrawn() && typeof document !== "undefined";
}

/** The same props: the same objects, or the same data (loader data is new objects after every revalidation). */
export function sameProps(a: object, b: object, patched: readonly PropertyKey[] = []): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    if (patched.includes(key)) return true;
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    return x === y || JSON.stringify(x) === JSON.stringify(y);
  });
}

/** A kept part; `preload()` loads its code ahead (a page about to draw it, decision 407). */
export type KeptPart<P> = ComponentType<P> & { preload(): Promise<void> };

/** The marker of a part kept as the server drew it (set in the browser; the page may patch what it lists as `patched`). */
export const KEPT_ATTRIBUTE = "data-kept";

const markKept = (div: HTMLDivElement | null) => div?.setAttribute(KEPT_ATTRIBUTE, "");

/**
 * `patched`: props the page itself writes into the kept markup when they change (the results
 * list's ticks): a change of them alone keeps the markup.
 */
export function keptMarkup<P extends object>(
  load: () => Promise<ComponentType<P>>,
  className: string,
  { patched = [] }: { patched?: readonly (keyof P & string)[] } = {},
): KeptPart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        loading = null; // tried again the next time it is needed
        throw error;
      },
    ));
  // As a plain function component for createElement's types (a lazy one takes the same props).
  const Component = lazy(() => preload().then(() => ({ default: loaded! }))) as unknown as FunctionComponent<P>;
  function KeptMarkup(props: P) {
    // The props the server drew with: only while hydrating the server's document.
    const hydrating = useHydrating();
    const [serverProps] = useState<P | null>(() => (hydrating ? props : null));
    // In the browser, a part whose code is already in (preload()) is drawn at once, without an
    // empty frame while a lazy component settles; the choice is made at its first drawing and kept,
    // so the part is never drawn anew. Once drawn, the server's markup is gone: the part stays
    // drawn, also when the props come back to the server's (Back to the first list).
    const direct = useRef<boolean | null>(null);
    if (direct.current === null && serverProps !== null && sameProps(serverProps, props, patched)) {
      return (
        <div
          key="kept"
          ref={markKept}
          className={className}
          dangerouslySetInnerHTML={{ __html: "" }}
          suppressHydrationWarning
        />
      );
    }
    direct.current ??= typeof document !== "undefined" && loaded !== null;
    return (
      <div key="drawn" className={className}>
        {direct.current ? (
          createElement(loaded as unknown as FunctionComponent<P>, props)
        ) : (
          <Suspense fallback={null}>{createElement(Component, props)}</Suspense>
        )}
      </div>
    );
  }
  return Object.assign(KeptMarkup, { preload });
}
