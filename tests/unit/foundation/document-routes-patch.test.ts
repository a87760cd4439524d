import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as ReactTypes from "react";
import type * as ReactDomServer from "react-dom/server";
import type * as RemixReact from "@remix-run/react";
import type * as ReactRouterDom from "react-router-dom";
import type * as ReactRouterDomServer from "react-router-dom/server";
import type * as RemixRouter from "@remix-run/router";
import { describe, expect, it } from "vitest";

/**
 * patches/@remix-run+react+2.17.5.patch and patches/react-router-dom+6.30.4.patch
 * (docs/decisions/129) make the routes a document is rendered with once per
 * build instead of once per page: RemixServer keeps its server routes per
 * build manifest, createStaticRouter its data routes per routes array. These
 * tests load the CommonJS builds the server loads (vitest would otherwise
 * pick the unpatched ES module builds) and check pages still render their
 * own route, page after page, and that a new build is rendered with its own
 * route modules.
 */
const require = createRequire(import.meta.url);
const React = require("react") as typeof ReactTypes;
const { renderToString } = require("react-dom/server") as typeof ReactDomServer;
const { RemixServer } = require("@remix-run/react") as typeof RemixReact;
const { Outlet } = require("react-router-dom") as typeof ReactRouterDom;
const { createStaticRouter } = require("react-router-dom/server") as typeof ReactRouterDomServer;
const { createStaticHandler } = require("@remix-run/router") as typeof RemixRouter;

type RouteModule = { default: () => unknown };

/** A two-page build as Remix hands it to RemixServer: its manifest and route modules. */
function build(label: string) {
  const entry = (id: string, path: string, parentId?: string) => ({
    id,
    path,
    parentId,
    hasLoader: false,
    hasAction: false,
    hasClientLoader: false,
    hasClientAction: false,
    hasErrorBoundary: false,
    module: `/${id}.js`,
  });
  const routes: Record<string, ReturnType<typeof entry>> = {
    root: entry("root", ""),
    "routes/a": entry("routes/a", "a", "root"),
    "routes/b": entry("routes/b", "b", "root"),
  };
  const routeModules: Record<string, RouteModule> = {
    root: { default: () => React.createElement("main", null, React.createElement(Outlet)) },
    "routes/a": { default: () => React.createElement("h1", null, `${label} page A`) },
    "routes/b": { default: () => React.createElement("h1", null, `${label} page B`) },
  };
  return {
    manifest: { routes, entry: { module: "/entry.js", imports: [] }, url: "/manifest.js", version: label },
    routeModules,
  };
}

async function render(b: ReturnType<typeof build>, path: string): Promise<string> {
  const handler = createStaticHandler([
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/a", path: "a" },
        { id: "routes/b", path: "b" },
      ],
    },
  ]);
  const staticHandlerContext = await handler.query(new Request(`http://localhost${path}`));
  if (staticHandlerContext instanceof Response) throw new Error("unexpected redirect");
  const context = {
    manifest: b.manifest,
    // Remix makes this object afresh for every document; the patch must not depend on it staying the same.
    routeModules: { ...b.routeModules },
    staticHandlerContext,
    future: FUTURE,
    isSpaMode: false,
    serverHandoffString: "{}",
    criticalCss: undefined,
    renderMeta: {},
    serializeError: (e: Error) => e,
  };
  return renderToString(
    React.createElement(RemixServer, { context: context as never, url: `http://localhost${path}` }),
  );
}
const FUTURE = {};

describe("document routes made once per build (patched @remix-run/react and react-router-dom)", () => {
  it("is what the server loads", () => {
    expect(readFileSync(require.resolve("@remix-run/react/dist/server.js"), "utf8")).toContain(
      "serverRoutesByManifest",
    );
    expect(readFileSync(require.resolve("react-router-dom/server.js"), "utf8")).toContain("dataRoutesByRoutes");
  });

  it("renders each page's own route, page after page", async () => {
    const first = build("first");
    for (let round = 0; round < 3; round++) {
      expect(await render(first, "/a")).toContain("first page A");
      expect(await render(first, "/b")).toContain("first page B");
    }
    expect(await render(first, "/b")).not.toContain("page A");
  });

  it("renders a new build with its own route modules", async () => {
    expect(await render(build("old"), "/a")).toContain("old page A");
    expect(await render(build("new"), "/a")).toContain("new page A");
  });

  it("converts one routes array to data routes once; another array gets its own", () => {
    const context = {
      basename: "/",
      location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
      matches: [],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    };
    const routes = [{ id: "root", path: "", children: [{ id: "x", path: "x" }] }];
    const one = createStaticRouter(routes, context as never).routes;
    expect(createStaticRouter(routes, context as never).routes).toBe(one);
    const other = createStaticRouter(
      [{ id: "root", path: "", children: [{ id: "y", path: "y" }] }],
      context as never,
    ).routes;
    expect(other).not.toBe(one);
    expect(other[0].children?.map((r) => r.id)).toEqual(["y"]);
    expect(one[0].children?.map((r) => r.id)).toEqual(["x"]);
  });
});
