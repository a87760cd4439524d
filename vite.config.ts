import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// The Remix plugin is kept out of vitest: it would try to build the whole app
// for every unit-test run.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  plugins: process.env.VITEST
    ? []
    : [
        remix({
          // BUILD_DIR lets parallel test runs build side by side.
          buildDirectory: process.env.BUILD_DIR ?? "build",
          ignoredRouteFiles: ["**/*.test.*"],
          future: {
            v3_fetcherPersist: true,
            v3_relativeSplatPath: true,
            v3_throwAbortReason: true,
            v3_singleFetch: true,
            v3_lazyRouteDiscovery: false,
          },
        }),
      ],
  build: { sourcemap: false },
  test: {
    include: [
      "tests/unit/**/*.test.ts",
      "tests/unit/**/*.test.tsx",
      "tests/integration/**/*.test.ts",
      "app/**/*.test.ts",
      "seed/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-catalogues.ts"],
  },
});
