// @vitest-environment jsdom
import { act } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { keptMarkup } from "../../../app/components/kept-markup";

/**
 * Issue 29 item 4 (decision 406): a part that only shows the server's figures keeps the server's
 * markup while the page hydrates, without loading its code; its code loads only when the browser
 * must draw it itself.
 */

interface FiguresProps {
  figures: { credit: number; income: number };
}

function Figures({ figures }: FiguresProps) {
  return (
    <section data-testid="figures">
      <p>
        A credit of ${figures.credit} at ${figures.income} a year
      </p>
    </section>
  );
}

function part() {
  const loads: string[] = [];
  const Kept = keptMarkup(async () => {
    loads.push("figures");
    return Figures;
  }, "figures-part");
  return { Kept, loads };
}

/** What the server sends: the part's <div>, and the lazy component in a completed Suspense boundary. */
const serverMarkup = (props: FiguresProps) =>
  `<div class="figures-part"><!--$-->${renderToString(<Figures {...props} />)}<!--/$--></div>`;

const roots: Root[] = [];
afterEach(() => {
  act(() => roots.splice(0).forEach((root) => root.unmount()));
  document.body.innerHTML = "";
});

describe("keptMarkup", () => {
  const figures = { credit: 412, income: 36000 };

  it("keeps the server's markup while hydrating, without loading the part's code", async () => {
    const { Kept, loads } = part();
    const container = document.createElement("div");
    container.innerHTML = serverMarkup({ figures });
    document.body.appendChild(container);
    const section = container.querySelector("section");
    const errors: unknown[] = [];
    let root!: Root;
    await act(async () => {
      root = hydrateRoot(container, <Kept figures={figures} />, { onRecoverableError: (e) => errors.push(e) });
    });
    roots.push(root);
    expect(errors).toEqual([]);
    expect(loads).toEqual([]);
    expect(container.querySelector("section")).toBe(section);
    expect(container.textContent).toBe("A credit of $412 at $36000 a year");

    // The loader ran again with the same figures (new objects): still kept, still not loaded.
    await act(async () => root.render(<Kept figures={{ ...figures }} />));
    expect(loads).toEqual([]);
    expect(container.querySelector("section")).toBe(section);
  });

  it("loads the part and draws it when the figures change", async () => {
    const { Kept, loads } = part();
    const container = document.createElement("div");
    container.innerHTML = serverMarkup({ figures });
    document.body.appendChild(container);
    let root!: Root;
    await act(async () => {
      root = hydrateRoot(container, <Kept figures={figures} />);
    });
    roots.push(root);
    await act(async () => root.render(<Kept figures={{ credit: 250, income: 48000 }} />));
    await act(async () => {}); // the lazy component's promise
    expect(loads).toEqual(["figures"]);
    expect(container.textContent).toBe("A credit of $250 at $48000 a year");
    expect(container.querySelectorAll("section")).toHaveLength(1);
  });

  it("once drawn, draws the server's figures again itself (Back to the first list): the kept markup is gone", async () => {
    const { Kept } = part();
    const container = document.createElement("div");
    container.innerHTML = serverMarkup({ figures });
    document.body.appendChild(container);
    let root!: Root;
    await act(async () => {
      root = hydrateRoot(container, <Kept figures={figures} />);
    });
    roots.push(root);
    await act(async () => root.render(<Kept figures={{ credit: 250, income: 48000 }} />));
    await act(async () => {});
    await act(async () => root.render(<Kept figures={{ ...figures }} />));
    await act(async () => {});
    expect(container.textContent).toBe("A credit of $412 at $36000 a year");
  });

  it("leaves what the page patched in a kept part alone (a change of a `patched` prop only)", async () => {
    const loads: string[] = [];
    const Kept = keptMarkup(
      async () => {
        loads.push("figures");
        return ({ figures }: FiguresProps & { ticks: string[] }) => <Figures figures={figures} />;
      },
      "figures-part",
      { patched: ["ticks"] },
    );
    const container = document.createElement("div");
    container.innerHTML = serverMarkup({ figures });
    document.body.appendChild(container);
    let root!: Root;
    await act(async () => {
      root = hydrateRoot(container, <Kept figures={figures} ticks={[]} />);
    });
    roots.push(root);
    const section = container.querySelector("section");
    expect(container.querySelector(".figures-part")?.hasAttribute("data-kept")).toBe(true);
    await act(async () => root.render(<Kept figures={{ ...figures }} ticks={["a"]} />));
    expect(loads).toEqual([]);
    expect(container.querySelector("section")).toBe(section);
  });

  it("draws the part where the server did not (a client-side navigation to the page)", async () => {
    const { Kept, loads } = part();
    const container = document.createElement("div");
    document.body.appendChild(container);
    const root = createRoot(container);
    roots.push(root);
    await act(async () => root.render(<Kept figures={figures} />));
    await act(async () => {});
    expect(loads).toEqual(["figures"]);
    expect(container.querySelector(".figures-part > section")?.textContent).toBe("A credit of $412 at $36000 a year");
  });
});
