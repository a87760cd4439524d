import type { EnrollLink } from "../../domain/marketplaces";

/**
 * The "Apply / enroll" next step of a plan: outbound links whose words say
 * where they lead (site name and host), each opening in the same tab so Back
 * returns to the plan.
 */
export function EnrollLinks({
  links,
  planName,
  compact,
}: {
  links: EnrollLink[];
  planName: string;
  compact?: boolean;
}) {
  if (links.length === 0) return null;
  return (
    <ul className={compact ? "enroll-links compact" : "enroll-links"} data-testid="enroll-links">
      {links.map((link) => (
        <li key={link.kind}>
          <a
            href={link.href}
            className={link.kind === "marketplace" ? "enroll-link primary" : "enroll-link"}
            rel="noopener"
          >
            {link.label}
            <span className="visually-hidden"> for {planName}</span>{" "}
            <span className="link-host">{`(${link.host})`}</span>
          </a>
          {compact ? null : <span className="hint enroll-note">{link.note}</span>}
        </li>
      ))}
    </ul>
  );
}
