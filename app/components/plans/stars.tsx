import starsWords from "virtual:english/stars";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import { useWords } from "./format";

// Its words come with it: the plan page, the comparison, a list of cards drawn in the browser (decision 407).
addEnglish({ stars: starsWords } as Partial<Catalogue>);

/** A 1–5 star rating as stars, with the number for screen readers and for anyone who cannot see the glyphs. */
export function Stars({
  rating,
  label,
  compact = false,
}: {
  rating: number | null;
  label?: string;
  compact?: boolean;
}) {
  const { t } = useWords();
  if (rating === null) return <span className="muted">{t("stars.notRated")}</span>;
  const full = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="stars">
      <span aria-hidden="true" className="stars-glyphs">
        {"★".repeat(full)}
        <span className="stars-empty">{"☆".repeat(5 - full)}</span>
      </span>{" "}
      {/* Compact (a card's line): the stars only, their number for screen readers. */}
      <span className={compact ? "stars-text visually-hidden" : "stars-text"}>
        {t("stars.outOf5", { count: full })}
        <span className="visually-hidden"> {t("stars.what", { label: label ?? t("stars.qualityRating") })}</span>
      </span>
    </span>
  );
}
