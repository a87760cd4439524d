import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { readdirSync, readFileSync } from "node:fs";
import type { Plugin } from "vite";
import { CORE_KEYS_OF_LATER, LATER, SERVER_ONLY } from "./app/i18n/english-core";

/** The site's languages other than English (app/i18n/locales/<lang>.json). */
const OTHER_LANGUAGES = readdirSync(fileURLToPath(new URL("./app/i18n/locales", import.meta.url)))
  .filter((f) => /^[a-z]{2}\.json$/.test(f) && f !== "en.json")
  .map((f) => f.slice(0, -".json".length));
const I18N_MODULE = fileURLToPath(new URL("./app/i18n/i18n.ts", import.meta.url));

/**
 * `import words from "virtual:english/<namespace>"`: one namespace of app/i18n/locales/en.json as
 * a module of its own (`virtual:english/<namespace>/<key>,<key>`: only those keys of it), so the browser gets a page's own words in that page's chunk (issue 29
 * item 4; app/i18n/english-core.ts). Rollup keeps a JSON file in one chunk however it is imported.
 *
 * In the browser build a whole namespace's module also brings the page's language (decision 407):
 * on a page in another language it loads that language's words of the namespace
 * (`virtual:catalogue/<lang>/<namespace>`, a chunk of its own) with a top-level await, so the
 * module that shows them, and a route or a lazy part that imports it, runs only once they are in.
 */
function englishNamespaces(): Plugin {
  const PREFIX = "virtual:english/";
  const file = fileURLToPath(new URL("./app/i18n/locales/en.json", import.meta.url));
  return {
    name: "english-namespaces",
    enforce: "pre",
    resolveId: (id) => (id.startsWith(PREFIX) ? "\0" + id : undefined),
    load(id, options) {
      if (!id.startsWith("\0" + PREFIX)) return undefined;
      this.addWatchFile(file);
      // virtual:english/<namespace>, or virtual:english/<namespace>/<key>,<key>: only those keys of it.
      const [namespace, keys] = id.slice(PREFIX.length + 1).split("/") as [string, string | undefined];
      const words = (JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>)[namespace];
      if (words === undefined) this.error(`en.json has no namespace "${namespace}"`);
      const browser = !options?.ssr && !process.env.VITEST;
      if (!keys && browser && !(SERVER_ONLY as readonly string[]).includes(namespace)) {
        const loaders = OTHER_LANGUAGES.map(
          (lang) => `${lang}: () => import("virtual:catalogue/${lang}/${namespace}")`,
        );
        return [
          `import { addWords } from ${JSON.stringify(I18N_MODULE)};`,
          `const lang = document.documentElement.lang;`,
          `const load = { ${loaders.join(", ")} }[lang];`,
          `if (load) addWords(lang, { ${JSON.stringify(namespace)}: (await load()).default });`,
          `export default ${JSON.stringify(words)};`,
        ].join("\n");
      }
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
 * Only the language in use reaches a page (issue 29 item 4, decisions 405 and 407). In the browser
 * build, app/i18n/i18n.ts's import of the English core is an empty stand-in, so the core is a
 * chunk of its own that entry.client.tsx loads for an English page only; `virtual:catalogue/<lang>`
 * is that language's core (the namespaces of the English core, and the same few keys of later
 * ones: CORE_KEYS_OF_LATER), and `virtual:catalogue/<lang>/<namespace>` one later namespace, which
 * `virtual:english/<namespace>` loads on that language's pages. No browser chunk has the
 * namespaces only the server words (SERVER_ONLY). The server build, and vitest, keep the real
 * import: the server words every language.
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
      const [lang, namespace] = id.slice(PREFIX.length + 1).split("/") as [string, string | undefined];
      const file = fileURLToPath(new URL(`./app/i18n/locales/${lang}.json`, import.meta.url));
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>;
      if (namespace !== undefined) {
        if ((SERVER_ONLY as readonly string[]).includes(namespace) || !(namespace in catalogue))
          this.error(`no browser words of ${lang}.json's "${namespace}"`);
        return `export default ${JSON.stringify(catalogue[namespace])};`;
      }
      const core: Record<string, unknown> = {};
      for (const [ns, words] of Object.entries(catalogue)) {
        if (!(LATER as readonly string[]).includes(ns)) core[ns] = words;
      }
      for (const [ns, keys] of Object.entries(CORE_KEYS_OF_LATER)) {
        const words = catalogue[ns] ?? {};
        core[ns] = Object.fromEntries(keys.filter((key) => key in words).map((key) => [key, words[key]]));
      }
      return `export default ${JSON.stringify(core)};`;
    },
  };
}

/**
 * The browser build is minified by terser, two passes (issue 29 item 4, decision 407): every
 * page's JavaScript ~4 % smaller gzipped than esbuild's minifier (the results page ~4 KB, most
 * of it React DOM and the router). The server build is not minified.
 */
function terserForTheBrowser(): Plugin {
  return {
    name: "terser-for-the-browser",
    apply: "build",
    config: (_config, env) =>
      env.isSsrBuild ? undefined : { build: { minify: "terser", terserOptions: { compress: { passes: 2 } } } },
  };
}

/**
 * Remix's lazy route discovery is off (decision 123: the whole manifest up front), yet its code
 * (fog-of-war.js, ~1 KB gzipped) is in every page's JavaScript: the browser build gets a stand-in
 * that answers "off" (issue 29 item 4, decision 407). The server build keeps the real module.
 */
function noLazyRouteDiscoveryInTheBrowser(lazyRouteDiscovery: boolean): Plugin {
  const STAND_IN = "\0remix-fog-of-war-off";
  return {
    name: "no-lazy-route-discovery-in-the-browser",
    enforce: "pre",
    apply: "build",
    resolveId(source, importer, options) {
      if (lazyRouteDiscovery || options?.ssr || source !== "./fog-of-war.js") return undefined;
      return importer?.replaceAll("\\", "/").includes("/@remix-run/react/dist/esm/") ? STAND_IN : undefined;
    },
    load(id) {
      if (id !== STAND_IN) return undefined;
      return [
        "export function isFogOfWarEnabled(future, isSpaMode) {",
        "  if (future.v3_lazyRouteDiscovery === true && !isSpaMode) throw new Error('vite.config.ts: lazy route discovery is on, remove noLazyRouteDiscoveryInTheBrowser');",
        "  return false;",
        "}",
        "export const getPartialManifest = (manifest) => manifest;",
        "export const getPatchRoutesOnNavigationFunction = () => undefined;",
        "export function useFogOFWarDiscovery() {}",
      ].join("\n");
    },
  };
}

/**
 * RemixBrowser gives its context a new object at every render, and it renders again at every
 * navigation, outside a transition (its own copy of the location). A context change reaches every
 * part of the results page still kept as the server drew it (decision 440), and React, unable to
 * hydrate a part that waits for its first use, dropped each one's markup and drew it anew: React
 * error #421, five times, after one filter on a slow phone (decision 527). The browser build
 * memoizes that value, so a new location alone changes nothing below it. A Remix whose code no
 * longer has the expected text fails the build here.
 */
function stableRemixContextInTheBrowser(): Plugin {
  const VALUE = `value: {
        manifest: window.__remixManifest,
        routeModules: window.__remixRouteModules,
        future: window.__remixContext.future,
        criticalCss,
        isSpaMode: window.__remixContext.isSpaMode
      }`;
  const MEMOIZED = `value: React.useMemo(() => ({
        manifest: window.__remixManifest,
        routeModules: window.__remixRouteModules,
        future: window.__remixContext.future,
        criticalCss,
        isSpaMode: window.__remixContext.isSpaMode
      }), [criticalCss])`;
  return {
    name: "stable-remix-context-in-the-browser",
    apply: "build",
    transform(code, id, options) {
      if (options?.ssr || !id.replaceAll("\\", "/").endsWith("/@remix-run/react/dist/esm/browser.js")) return undefined;
      if (code.split(VALUE).length !== 2)
        throw new Error("vite.config.ts: RemixBrowser's context value is not where it was; see decision 527");
      return { code: code.replace(VALUE, MEMOIZED), map: null };
    },
  };
}

/** Remix's v3 flags; `v3_lazyRouteDiscovery: false` by decision 123. */
const REMIX_FUTURE = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_singleFetch: true,
  v3_lazyRouteDiscovery: false,
} as const;

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
        terserForTheBrowser(),
        noLazyRouteDiscoveryInTheBrowser(REMIX_FUTURE.v3_lazyRouteDiscovery),
        stableRemixContextInTheBrowser(),
        remix({
          // BUILD_DIR lets parallel test runs build side by side.
          buildDirectory: process.env.BUILD_DIR ?? "build",
          ignoredRouteFiles: ["**/*.test.*"],
          future: REMIX_FUTURE,
        }),
      ],
  // Top-level await (virtual:english/<namespace> on a page in another language, decision 407):
  // browsers from 2021 on; an older one gets the pages without JavaScript, as they all work.
  build: { sourcemap: false, target: ["es2022", "chrome89", "edge89", "firefox89", "safari15"] },
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
