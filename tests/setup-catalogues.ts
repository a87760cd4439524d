// Tests render and word pages in any language, as the server does: every catalogue loaded (app/i18n/catalogues.server.ts).
import { loadCatalogues } from "../app/i18n/catalogues.server";

loadCatalogues();
