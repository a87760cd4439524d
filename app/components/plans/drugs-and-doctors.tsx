import { useState, type ReactNode } from "react";
import type { Selection } from "../../lib/shopping-url";
import { useWords } from "./format";

/**
 * The drug and doctor pickers of the results page in one native disclosure
 * (issue 17 item 3: the list starts within a screen and a half at phone
 * width). Open when something is chosen or a search is under way (a search
 * without JavaScript is a page load). The first render decides: React never
 * closes it again while the page stays (adding or removing a chip with
 * JavaScript keeps it as the shopper left it).
 */
export function DrugsAndDoctors({
  drugs,
  doctors,
  searching,
  children,
}: {
  drugs: readonly Selection[];
  doctors: readonly Selection[];
  searching: boolean;
  children: ReactNode;
}) {
  const { t } = useWords();
  const [open] = useState(() => searching || drugs.length > 0 || doctors.length > 0);
  const chosen = [...drugs, ...doctors].map((s) => s.name);
  return (
    <details className="drugs-doctors" open={open} data-testid="drugs-doctors">
      <summary>
        {chosen.length > 0 ? t("planPage.coverageHeading") : t("drugsDoctors.check")}
        {chosen.length > 0 ? <span className="hint-inline"> ({chosen.join(", ")})</span> : null}
      </summary>
      {children}
    </details>
  );
}
