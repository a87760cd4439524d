import { useState, type ReactNode } from "react";
import type { Selection } from "../../lib/shopping-url";
import { useWords } from "./format";
import drugsDoctorsWords from "virtual:english/drugsDoctors";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: the results page loads it when it is used (decision 440).
addEnglish({ drugsDoctors: drugsDoctorsWords } as Partial<Catalogue>);

/**
 * The drug and doctor pickers of the results page in one native disclosure
 * (issue 28 item 1: the first plan within the first screen at phone width).
 * Its one line names what is chosen; open while a search is under way (a
 * search without JavaScript is a page load). The first render decides: React never
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
  // Folded to one line once something is chosen (issue 28 item 1); open while a search is under way.
  const [open] = useState(() => searching);
  const chosen = [...drugs, ...doctors].map((s) => s.name);
  return (
    <details className="drugs-doctors" open={open} data-testid="drugs-doctors">
      <summary>
        {chosen.length > 0 ? t("drugsDoctors.chosen", { count: chosen.length }) : t("drugsDoctors.check")}
        {chosen.length > 0 ? <span className="hint-inline"> ({chosen.join(", ")})</span> : null}
      </summary>
      {children}
    </details>
  );
}
