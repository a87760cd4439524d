import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import type { Plugin } from "vite";
import { SERVER_ONLY } from "./app/i18n/english-core";

/**
 * `import words from "virtual:english/<namespace>"`: one namespace of app/i18n/locales/en.json as
 * a module of its own (`virtual:english/<namespace>/<key>,<key>`: only those keys of it), so the browser gets a page's own words in that page's chunk (issue 29
 * item 4; app/i18n/english-core.ts). Rollup keeps a JSON file in one chunk however it is imported.
 */
function englishNamespaces(): Plugin {
  const PREFIX = "virtual:english/";
  const file = fileURLToPath(new URL("./app/i18n/locales/en.json", import.meta.url));
  return {
    name: "english-namespaces",
    enforce: "pre",
    resolveId: (id) => (id.startsWith(PREFIX) ? "\0" + id : undefined),
    load(id) {
      if (!id.startsWith("\0" + PREFIX)) return undefined;
      this.addWatchFile(file);
      // virtual:english/<namespace>, or virtual:english/<namespace>/<key>,<key>: only those keys of it.
      const [namespace, keys] = id.slice(PREFIX.length + 1).split("/") as [string, string | undefined];
      const words = (JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>)[namespace];
      if (words === undefined) this.error(`en.json has no namespace "${namespace}"`);
      if (!keys) return `export default ${JSON.stringify(words)};`;
      const picked: Record<string, unknown> = {};
      for (const key of keys.split(",")) {
        if (!(key in words)) this.error(`en.json's ${namespace} has no key "${key}"`);
        picked[key] = words[key];
      }
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}

/**
 * Only the language in use reaches a page (issue 29 item 4, decision 405). In the browser build,
 * app/i18n/i18n.ts's import of the English core is an empty stand-in, so the core is a chunk of
 * its own that entry.client.tsx loads for an English page only; and `virtual:catalogue/<lang>` is
 * that language's catalogue without the namespaces only the server words (SERVER_ONLY). The
 * server build, and vitest, keep the real import: the server words every language.
 */
function languageInUse(): Plugin {
  const PREFIX = "virtual:catalogue/";
  const NO_CORE = "\0virtual:no-english-core";
  const i18nModule = fileURLToPath(new URL("./app/i18n/i18n.ts", import.meta.url));
  return {
    name: "language-in-use",
    enforce: "pre",
    resolveId(source, importer, options) {
      if (source.startsWith(PREFIX)) return "\0" + source;
      if (!options?.ssr && source === "./english-core" && importer === i18nModule) return NO_CORE;
      return undefined;
    },
    load(id) {
      if (id === NO_CORE) return "export const english = undefined;";
      if (!id.startsWith("\0" + PREFIX)) return undefined;
      const lang = id.slice(PREFIX.length + 1);
      const file = fileURLToPath(new URL(`./app/i18n/locales/${lang}.json`, import.meta.url));
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      for (const namespace of SERVER_ONLY) delete catalogue[namespace];
      return `export default ${JSON.stringify(catalogue)};`;
    },
  };
}

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
    ? [englishNamespaces()]
    : [
        englishNamespaces(),
        languageInUse(),
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
