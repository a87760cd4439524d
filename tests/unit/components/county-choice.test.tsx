// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { CountyChoice } from "../../../app/components/plans/county-choice";
import { readShoppingState } from "../../../app/lib/shopping-url";

/** Issue 17 item 5: Continue without a county says "Choose a county" at the field and moves focus there. */

const COUNTIES = [
  { fips: "40143", name: "Tulsa County", state: "OK", share: 0.9, sbe: false },
  { fips: "40131", name: "Rogers County", state: "OK", share: 0.1, sbe: false },
];

async function show(error: string | null) {
  const submitted: string[] = [];
  const router = createMemoryRouter(
    [
      {
        path: "/plans",
        element: (
          <CountyChoice
            state={readShoppingState(new URLSearchParams("zip=74127"))}
            zip="74127"
            counties={COUNTIES}
            error={error}
          />
        ),
        loader: ({ request }) => {
          submitted.push(request.url);
          return null;
        },
      },
    ],
    { initialEntries: ["/plans?zip=74127"] },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
  await screen.findByRole("button", { name: "Continue" }); // the route's loader has answered
  return { router, submitted };
}

afterEach(cleanup);

describe("the county step", () => {
  it("with JavaScript: Continue without a choice shows the field error, focuses the first county and sends nothing", async () => {
    const { router } = await show(null);
    expect(screen.queryByText("Choose a county")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Choose a county")).toBeTruthy();
    const first = screen.getByRole("radio", { name: /Tulsa County/ });
    expect(document.activeElement).toBe(first);
    expect(first.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("group").getAttribute("aria-describedby")).toBe("county-hint county-error");
    expect(router.state.location.search).toBe("?zip=74127");
  });

  it("with a choice: the form is sent with the county", async () => {
    const { router } = await show(null);
    fireEvent.click(screen.getByRole("radio", { name: /Rogers County/ }));
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.search).toContain("county=40131");
    expect(screen.queryByText("Choose a county")).toBeNull();
  });

  it("without JavaScript: the server's error is drawn at the field with the first county focused", async () => {
    await show("Choose a county");
    const first = screen.getByRole("radio", { name: /Tulsa County/ });
    expect(document.activeElement).toBe(first);
    expect(screen.getByText("Choose a county").id).toBe("county-error");
  });
});
