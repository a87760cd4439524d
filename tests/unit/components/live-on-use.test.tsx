// @vitest-environment jsdom
import { act, useEffect, useRef, useState, type ReactElement } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { liveOnUse } from "../../../app/components/live-on-use";

/**
 * Issue 29 item 4 (decision 440): a part that works as plain HTML keeps the server's markup while
 * the page hydrates, without loading its code; its first use loads the code and React hydrates the
 * same elements; what was done before it was live is done again.
 */

interface FormProps {
  label: string;
  onChanged?: (checked: boolean) => void;
}

/** A form that, once it knows it is hydrated, listens for changes (as the filters form does). */
function LiveForm({ label, onChanged }: FormProps) {
  const [hydrated, setHydrated] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    const element = box.current;
    if (!element || !hydrated) return;
    const listener = () => onChanged?.(element.checked);
    element.addEventListener("change", listener);
    return () => element.removeEventListener("change", listener);
  }, [hydrated, onChanged]);
  return (
    <form data-live={hydrated ? "" : undefined}>
      <label>
        <input ref={box} type="checkbox" name="metal" value="Silver" /> {label}
      </label>
    </form>
  );
}

function part() {
  const loads: string[] = [];
  const Part = liveOnUse(async () => {
    loads.push("form");
    return LiveForm;
  }, "form-part");
  return { Part, loads };
}

const serverMarkup = (props: FormProps) =>
  `<div class="form-part"><!--$-->${renderToString(<LiveForm {...props} />)}<!--/$--></div>`;

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 10)));

const roots: Root[] = [];
afterEach(() => {
  act(() => roots.splice(0).forEach((root) => root.unmount()));
  document.body.innerHTML = "";
});

async function hydrated(element: ReactElement, props: FormProps) {
  const container = document.createElement("div");
  container.innerHTML = serverMarkup(props);
  document.body.appendChild(container);
  const errors: unknown[] = [];
  await act(async () => {
    roots.push(hydrateRoot(container, element, { onRecoverableError: (e) => errors.push(e) }));
  });
  await settle();
  return { container, errors };
}

describe("liveOnUse", () => {
  it("keeps the server's markup while hydrating, without loading the part's code", async () => {
    const { Part, loads } = part();
    const { container, errors } = await hydrated(<Part label="Silver" />, { label: "Silver" });
    expect(loads).toEqual([]);
    expect(container.querySelector("form")!.hasAttribute("data-live")).toBe(false);
    expect(container.textContent).toContain("Silver");
    expect(errors).toEqual([]);
  });

  it("hydrates the same elements once focused, focus kept", async () => {
    const { Part, loads } = part();
    const { container, errors } = await hydrated(<Part label="Silver" />, { label: "Silver" });
    const box = container.querySelector("input")!;
    box.focus();
    await settle();
    expect(loads).toEqual(["form"]);
    expect(container.querySelector("form")!.hasAttribute("data-live")).toBe(true);
    expect(container.querySelector("input")).toBe(box); // not drawn anew
    expect(document.activeElement).toBe(box);
    expect(errors).toEqual([]);
  });

  it("sends a change made before it was live once it is", async () => {
    const { Part } = part();
    const changes: boolean[] = [];
    const onChanged = (checked: boolean) => changes.push(checked);
    const { container, errors } = await hydrated(<Part label="Silver" onChanged={onChanged} />, {
      label: "Silver",
    });
    const box = container.querySelector("input")!;
    box.click(); // pointer-free: the change alone (a click on a box is not held)
    expect(box.checked).toBe(true);
    box.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    await settle();
    expect(changes).toEqual([true]);
    expect(box.checked).toBe(true);
    expect(errors).toEqual([]);
  });
});
