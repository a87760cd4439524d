// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from "react-router-dom";
import { PageAnnouncer } from "../../../app/components/page-announcer";
import { useFocusHeadingOnArrival } from "../../../app/components/plans/use-focus-heading";

/** Issue 17 item 7: after a client-side navigation the new page's h1 has focus and its title is announced. */

function PlanPage() {
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>("plan-1");
  return (
    <h1 ref={heading} tabIndex={-1}>
      Bluebonnet Silver Standard
    </h1>
  );
}

function Results() {
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>("results");
  return (
    <h1 ref={heading} tabIndex={-1}>
      Plans in Dallas County
    </h1>
  );
}

function show() {
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <main>
            <PageAnnouncer />
            <Outlet />
          </main>
        ),
        children: [
          { path: "plans", element: <Results /> },
          { path: "plans/:id", element: <PlanPage /> },
        ],
      },
    ],
    { initialEntries: ["/plans"] },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
  return router;
}

afterEach(cleanup);

describe("focus and announcement after navigation", () => {
  it("leaves focus alone on the first page, then focuses the new h1 and announces the title", async () => {
    const router = show();
    await screen.findByRole("heading", { name: "Plans in Dallas County" });
    expect(document.activeElement).toBe(document.body);
    expect(screen.getByTestId("page-announcer").textContent).toBe("");

    document.title = "Bluebonnet Silver Standard | Health Plan Marketplace";
    await act(() => router.navigate("/plans/1"));
    const h1 = await screen.findByRole("heading", { name: "Bluebonnet Silver Standard" });
    expect(document.activeElement).toBe(h1);
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(screen.getByRole("status").textContent).toBe("Bluebonnet Silver Standard | Health Plan Marketplace");

    document.title = "Plans and prices | Health Plan Marketplace";
    await act(() => router.navigate(-1));
    expect(document.activeElement).toBe(await screen.findByRole("heading", { name: "Plans in Dallas County" }));
  });
});

/** Issue 17 item 7 (the rest): one rule in root for every page, not a hook per page. */
describe("root's focus rule after any client navigation", () => {
  function Home() {
    return <h1>Find health coverage</h1>;
  }
  function Household() {
    const params = new URLSearchParams(useLocation().search);
    return (
      <>
        <h1>Tell us about your household</h1>
        {params.get("bad") ? (
          <div className="error-summary" role="alert" tabIndex={-1}>
            <h2>Please check this answer</h2>
          </div>
        ) : null}
        <button type="button">Sort</button>
        <input id="drugq" aria-label="Drug name" />
      </>
    );
  }
  function showAll() {
    const router = createMemoryRouter(
      [
        {
          path: "/",
          element: (
            <main id="main">
              <PageAnnouncer />
              <Outlet />
            </main>
          ),
          children: [
            { index: true, element: <Home /> },
            { path: "plans", element: <Household /> },
          ],
        },
      ],
      { initialEntries: ["/"] },
    );
    render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
    return router;
  }
  const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)));

  it("home → household: the new page's h1 (which has no hook of its own) takes focus and the title is announced", async () => {
    document.title = "Health Plan Marketplace";
    const router = showAll();
    await screen.findByRole("heading", { name: "Find health coverage" });
    document.title = "Tell us about your household | Health Plan Marketplace";
    await act(() => router.navigate("/plans?zip=75201"));
    await settle();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Tell us about your household" }));
    expect(screen.getByTestId("page-announcer").textContent).toBe(
      "Tell us about your household | Health Plan Marketplace",
    );
  });

  it("a failed submit (same page, an error summary drawn) focuses the summary, and announces no page title", async () => {
    document.title = "Tell us about your household | Health Plan Marketplace";
    const router = showAll();
    await act(() => router.navigate("/plans?zip=75201"));
    await settle();
    await act(() => router.navigate("/plans?zip=75201&bad=1"));
    await settle();
    expect(document.activeElement).toBe(screen.getByRole("alert"));
  });

  it("the same page updated in place keeps focus on the control that changed it", async () => {
    document.title = "Plans | Health Plan Marketplace";
    const router = showAll();
    await act(() => router.navigate("/plans?zip=75201"));
    await settle();
    const sort = screen.getByRole("button", { name: "Sort" });
    sort.focus();
    await act(() => router.navigate("/plans?zip=75201&sort=premium"));
    await settle();
    expect(document.activeElement).toBe(sort);
  });

  it("a navigation naming its target (a picker's choice) focuses it and says its own words", async () => {
    document.title = "Plans | Health Plan Marketplace";
    const router = showAll();
    await act(() => router.navigate("/plans?zip=75201"));
    await settle();
    await act(() =>
      router.navigate("/plans?zip=75201&drug=617318#drugs", {
        state: { focus: ["drugq"], announce: "Added Lipitor 20 mg." },
      }),
    );
    await settle();
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Drug name" }));
    expect(screen.getByTestId("page-announcer").textContent).toBe("Added Lipitor 20 mg.");
  });

  it("leaves a jump to a section of the same page to the browser", async () => {
    document.title = "Plans | Health Plan Marketplace";
    const router = showAll();
    await act(() => router.navigate("/plans?zip=75201&bad=1"));
    await settle();
    const sort = screen.getByRole("button", { name: "Sort" });
    sort.focus();
    await act(() => router.navigate("/plans?zip=75201&bad=1#age-0"));
    await settle();
    expect(document.activeElement).toBe(sort);
  });
});
