import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, type RefObject } from "react";
import { listPageParam, planHref, type ShoppingState } from "../../lib/shopping-url";
import { KEPT_ATTRIBUTE, keptMarkup } from "../kept-markup";
import { COMPARE_ERROR_ID, type CompareTicks } from "./compare-ticks";

/**
 * The code a list the browser draws needs: the cards', and their own year and coverage parts'
 * when the search has drugs or doctors. The results page's clientLoader waits for it with the
 * list's data, so a new list is drawn at once in place of the old (no empty list in between).
 */
export function preloadListCode(url: URL): Promise<unknown> {
  const parts = /[?&](drug|npi)=/.test(url.search)
    ? import("./plan-card-parts").then((m) => m.preloadCardParts())
    : null;
  return Promise.all([KeptPlanList.preload(), parts]).catch(() => {}); // drawn when it comes, then
}

/**
 * The results list (issue 29 item 4, decision 407): kept as the server drew it while the page
 * hydrates, so the page loads the cards' code and words only to draw a list itself (a new page,
 * filter or drug, when `PlanList`'s props other than the ticks change). While it is kept, the
 * page does what the cards' code would: `useKeptListPatches` writes the ticks into the tick boxes
 * and the links that carry them, and handles a tick and a click on a plan's link.
 */
export const KeptPlanList = keptMarkup(() => import("./plan-list").then((m) => m.PlanList), "plan-list-part", {
  patched: ["compareIds", "compareInvalid", "onCompareTick"],
});

const KEPT_CARD = `.plan-list-part[${KEPT_ATTRIBUTE}] li[data-plan-id]`;

/** A plain left click that a router <Link> would take over (no new tab or window, no download). */
function ordinaryClick(event: MouseEvent, link: Element): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (link.getAttribute("target") ?? "_self") === "_self" &&
    !link.hasAttribute("download")
  );
}

export function useKeptListPatches(
  list: RefObject<HTMLElement>,
  { state, listPage, ticks }: { state: ShoppingState; listPage: number; ticks: CompareTicks },
): void {
  const navigate = useNavigate();
  const tick = useRef(ticks.tick);
  tick.current = ticks.tick;

  // A tick and a click on a plan's link in the kept cards: what the cards' onChange and <Link>s do.
  useEffect(() => {
    const root = list.current;
    if (!root) return;
    const onChange = (event: Event) => {
      const box = event.target;
      if (box instanceof HTMLInputElement && box.name === "compare" && box.closest(KEPT_CARD))
        tick.current(box.value, box.checked);
    };
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link?.closest(KEPT_CARD) || !ordinaryClick(event, link)) return;
      event.preventDefault();
      navigate(link.getAttribute("href")!);
    };
    root.addEventListener("change", onChange);
    root.addEventListener("click", onClick);
    return () => {
      root.removeEventListener("change", onChange);
      root.removeEventListener("click", onClick);
    };
  }, [list, navigate]);

  // The ticks as they are now, in the boxes and in the plans' links (each carries them).
  const tickKey = ticks.ids.join(",");
  const invalid = ticks.error !== null;
  useEffect(() => {
    const ids = tickKey ? tickKey.split(",") : [];
    for (const card of list.current?.querySelectorAll<HTMLElement>(KEPT_CARD) ?? []) {
      const id = card.dataset.planId!;
      const box = card.querySelector<HTMLInputElement>('input[name="compare"]');
      if (box) {
        box.checked = ids.includes(id);
        if (invalid) {
          box.setAttribute("aria-invalid", "true");
          box.setAttribute("aria-describedby", COMPARE_ERROR_ID);
        } else {
          box.removeAttribute("aria-invalid");
          box.removeAttribute("aria-describedby");
        }
      }
      const href = planHref(id, state, listPageParam(listPage));
      for (const link of card.querySelectorAll(`a[href^="/plans/${CSS.escape(encodeURIComponent(id))}"]`))
        link.setAttribute("href", href);
    }
  }, [list, tickKey, invalid, state, listPage]);
}
