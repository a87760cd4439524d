import type { ReactNode } from "react";
import { useLanguage, useT } from "../i18n/use-t";

/**
 * A page kept in English (the agent pages, issue 21): in another language it says so first, in that
 * language, and marks its English content lang="en" so screen readers read it with English rules.
 */
export function EnglishOnly({ children }: { children: ReactNode }) {
  const lang = useLanguage();
  const t = useT();
  if (lang === "en") return <>{children}</>;
  return (
    <>
      <p className="notice" role="note" data-testid="english-only-notice">
        {t("agentsEnglishOnly")}
      </p>
      <div lang="en">{children}</div>
    </>
  );
}
