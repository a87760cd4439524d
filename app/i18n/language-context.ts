import { createContext } from "react";
import type { Language } from "./i18n";

/**
 * The language entry.server.tsx resolved from the request itself, for documents whose root loader
 * did not run (a URL no route matches answers 404 without loaders).
 */
export const RequestLanguage = createContext<Language | undefined>(undefined);

/**
 * The page's language as app/root.tsx's Layout resolved it, for every component below it: a plain
 * string in context, so useT() and useWords() are a context read and a map look-up per render
 * (react-i18next's useTranslation built an i18n wrapper and a fixed t per component per request).
 * Undefined outside a Layout (a component rendered on its own in a test): English.
 */
export const PageLanguage = createContext<Language | undefined>(undefined);
