/** One namespace of en.json as its own module (vite.config.ts, englishNamespaces). */
declare module "virtual:english/*" {
  const words: Record<string, unknown>;
  export default words;
}

/** A language's catalogue for the browser, less the server's own namespaces (vite.config.ts, browserCatalogues). */
declare module "virtual:catalogue/*" {
  import type { Catalogue } from "./i18n";
  const catalogue: Catalogue;
  export default catalogue;
}
