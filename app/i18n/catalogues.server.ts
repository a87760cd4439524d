import { addCatalogue, addEnglish, type Catalogue, type Language } from "./i18n";
import en from "./locales/en.json";
import es from "./locales/es.json";

/**
 * Every catalogue, for the server (which renders any language) and for tests. The browser gets
 * English's core namespaces in its bundle (english-core.ts), a page's own with that page, and another language from its own chunk (entry.client.tsx).
 */
export const CATALOGUES: Record<Language, Catalogue> = { en, es };

/**
 * Registers every catalogue with i18n.ts. Called at the top of the modules that word server text
 * (a bare import would be dropped: package.json says "sideEffects": false).
 */
export function loadCatalogues(): void {
  addEnglish(en);
  addCatalogue("es", es);
}
