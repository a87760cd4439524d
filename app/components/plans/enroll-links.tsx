import type { EnrollLink } from "../../domain/marketplaces";
import { useWords } from "./format";

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
  const { t } = useWords();
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
            {link.kind === "marketplace"
              ? t("enroll.marketplace", { name: link.name })
              : t("enroll.insurer", { name: link.name })}
            <span className="visually-hidden"> {t("enroll.forPlan", { plan: planName })}</span>{" "}
            <span className="link-host">{`(${link.host})`}</span>
          </a>
          {compact ? null : (
            <span className="hint enroll-note">
              {link.kind === "marketplace"
                ? t("enroll.marketplaceNote", { planId: link.planId, plan: link.planName, year: link.year })
                : t("enroll.insurerNote")}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
