import { z } from "zod";
import { doctorCoverageWords, drugCoverageWords } from "../../components/plans/coverage-words";
import { wordsFor } from "../../components/plans/format";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import { formatCents } from "../../lib/format";
import { planHref } from "../../lib/shopping-url";
import { publicBaseUrl } from "./unsubscribe-token.server";
import { ApiError } from "../platform/api.server";
import { planSummaryPage, type PlanSummaryModel } from "../pages/plan-summary-page.server";
import { planSummaryEmail } from "./email-templates.server";
import { outboxRows } from "./outbox.server";
import { kickOutbox, withWriteStore } from "./write-store-handle.server";

/** What the summary's email form answers: the address it goes to, or the field to fix. */
export type SummaryEmailAnswer =
  | { ok: true; email: string }
  | { ok: false; status: number; field: "email" | "consent" | "form"; message: string; email: string };

const ADDRESS = z.email();

function dollars(amount: number, lang: Language): string {
  return formatCents(Math.round(amount * 100), lang);
}

/** The summary as plain lines, in the shopper's language: what the printable page says. */
export function summaryLines(page: PlanSummaryModel, lang: Language): string[] {
  const t = tFor(lang);
  const w = wordsFor(lang);
  const market = page.enroll.find((l) => l.kind === "marketplace");
  const lines = [
    `${t("summary.plan")}: ${page.plan.name} (${page.plan.issuer})`,
    `${t("summary.planId")}: ${page.plan.id}`,
    `${t("summary.year")}: ${page.plan.year}`,
  ];
  if (page.place) {
    const ages = page.state.people.map((p) => p.age).join(", ");
    lines.push(`${t("summary.household")}: ${ages} · ${page.place.countyName}, ${page.place.state} ${page.place.zip}`);
  }
  if (page.price) {
    lines.push(
      `${t("summary.fullPremium")}: ${dollars(page.price.premium, lang)}`,
      `${t("summary.credit")}: ${dollars(page.price.credit_applied, lang)}`,
      `${t("summary.netPremium")}: ${dollars(page.price.premium_w_credit, lang)}`,
    );
  }
  for (const s of page.drugCoverage?.selections ?? []) {
    const answer = page.drugCoverage!.results.find((r) => r.rxcui === s.code);
    lines.push(`${t("summary.drug")}: ${s.name}: ${drugCoverageWords(answer, page.drugCoverage!.upstream, w).text}`);
  }
  for (const s of page.doctorCoverage?.selections ?? []) {
    const answer = page.doctorCoverage!.results.find((r) => r.npi === s.code);
    lines.push(
      `${t("summary.doctor")}: ${s.name}: ${doctorCoverageWords(answer, page.doctorCoverage!.upstream, w).text}`,
    );
  }
  return [
    lines.join("\n"),
    t("summary.step2", { marketplace: market?.name ?? "", planId: page.plan.id }) + (market ? ` ${market.href}` : ""),
    t("summary.step3"),
    t("enroll.insurerWarning", { marketplace: market?.name ?? "" }),
    `${publicBaseUrl()}${planHref(page.plan.id, page.state)}`,
  ];
}

/**
 * Email the plan's summary to the shopper, who gave the address and ticked the consent box: one
 * outbox row (the outbox sends it, with retries), no other record kept. Bad input is a 400 that
 * names the field; a write store that cannot take it is a 503 that says to print instead.
 */
export async function emailPlanSummary(
  planId: string,
  url: URL,
  form: FormData,
  lang: Language = DEFAULT_LANGUAGE,
): Promise<SummaryEmailAnswer> {
  const t = tFor(lang);
  const email = String(form.get("email") ?? "").trim();
  const fail = (field: "email" | "consent" | "form", message: string, status = 400): SummaryEmailAnswer => ({
    ok: false,
    status,
    field,
    message,
    email: email.slice(0, 254),
  });
  if (email.length > 254 || !ADDRESS.safeParse(email).success) return fail("email", t("summary.emailBadAddress"));
  if (form.get("consent") !== "yes") return fail("consent", t("summary.emailNoConsent"));
  const page = await planSummaryPage(planId, url, lang);
  const rendered = planSummaryEmail(email, {
    subject: t("summary.emailSubject", { plan: page.plan.name, planId: page.plan.id }),
    lines: summaryLines(page, lang),
    lang,
  });
  const rows = outboxRows([{ kind: "email", ...rendered, subjectType: "plan_summary", subjectId: page.plan.id }]);
  try {
    await withWriteStore((store) => store.addOutbox(rows));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return fail("form", t("summary.emailUnavailable"), error.status >= 500 ? error.status : 503);
  }
  kickOutbox();
  return { ok: true, email };
}
