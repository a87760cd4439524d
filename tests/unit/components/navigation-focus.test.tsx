// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
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
