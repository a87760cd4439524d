import { defineConfig } from "vitest/config";

// Browser journeys: real chromium driven by playwright-core against the built
// server. Files run one at a time: two cores cannot host many browsers.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["tests/global-setup.ts"],
  },
});
