import { createContext } from "react";
import type { Language } from "./i18n";

/**
 * The language entry.server.tsx resolved from the request itself, for documents whose root loader
 * did not run (a URL no route matches answers 404 without loaders).
 */
export const RequestLanguage = createContext<Language | undefined>(undefined);
