/** A 1–5 star rating as stars, with the number for screen readers and for anyone who cannot see the glyphs. */
export function Stars({ rating, label = "Quality rating" }: { rating: number | null; label?: string }) {
  if (rating === null) return <span className="muted">Not rated yet</span>;
  const full = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="stars">
      <span aria-hidden="true" className="stars-glyphs">
        {"★".repeat(full)}
        <span className="stars-empty">{"☆".repeat(5 - full)}</span>
      </span>{" "}
      <span className="stars-text">
        {full} out of 5<span className="visually-hidden"> stars ({label})</span>
      </span>
    </span>
  );
}
