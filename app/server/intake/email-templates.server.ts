import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import { loadCatalogues } from "../../i18n/catalogues.server";
import { env } from "../platform/env.server";
import type { EmailMessage } from "./email.server";
import { publicBaseUrl, unsubscribeHeaders, unsubscribeLinks } from "./unsubscribe-token.server";

// Emails are worded in any language, also from the outbox worker.
loadCatalogues();
/**
 * The service's emails. Every message carries, for its recipient, an
 * unsubscribe link in the body and List-Unsubscribe / List-Unsubscribe-Post
 * headers (RFC 2369, RFC 8058), as long as UNSUBSCRIBE_TOKEN_SECRET is set.
 *
 * The specification names three kinds: consumer confirmation, agent
 * confirmation and operations notification. The waitlist sends a
 * confirmation (consumer or agent wording, by interest) and an operations
 * notification; agent discovery sends an agent confirmation and an operations
 * notification.
 */

export const EMAIL_TEMPLATES = [
  "waitlist_consumer_confirmation",
  "waitlist_agent_confirmation",
  "waitlist_operations_notification",
  "discovery_agent_confirmation",
  "discovery_operations_notification",
  "plan_summary",
] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

export interface RenderedEmail {
  template: EmailTemplate;
  message: EmailMessage & { to: string; headers: Record<string, string> };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Assemble text + HTML bodies from paragraphs, adding the unsubscribe footer. */
function compose(
  template: EmailTemplate,
  to: string,
  subject: string,
  paragraphs: string[],
  replyTo?: string,
  lang: Language = DEFAULT_LANGUAGE,
): RenderedEmail {
  const t = tFor(lang);
  const links = unsubscribeLinks(to);
  const site = publicBaseUrl();
  const footerText = links
    ? `${t("email.footer", { site })} ${t("email.footerStop", { link: links.page })}`
    : t("email.footer", { site });
  const text = [...paragraphs, "--", footerText].join("\n\n");
  const htmlParagraphs = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join("\n");
  const footerHtml = escapeHtml(t("email.footer", { site }));
  const htmlFooter = links
    ? `<p style="color:#4a5360;font-size:13px">${footerHtml} <a href="${escapeHtml(links.page)}">${escapeHtml(t("email.unsubscribeLink"))}</a>.</p>`
    : `<p style="color:#4a5360;font-size:13px">${footerHtml}</p>`;
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1f24">\n${htmlParagraphs}\n<hr>\n${htmlFooter}\n</body></html>`;
  return {
    template,
    message: {
      from: env().EMAIL_FROM,
      to,
      subject,
      text,
      html,
      ...(replyTo ? { replyTo } : {}),
      headers: unsubscribeHeaders(to),
    },
  };
}

/** The shopper's confirmation, in the language of the page they signed up on (issue 21). */
export function waitlistConsumerConfirmation(to: string, details: { zip: string; lang?: Language }): RenderedEmail {
  const lang = details.lang ?? DEFAULT_LANGUAGE;
  const t = tFor(lang);
  const plansUrl = lang === DEFAULT_LANGUAGE ? `${publicBaseUrl()}/plans` : `${publicBaseUrl()}/plans?lang=${lang}`;
  return compose(
    "waitlist_consumer_confirmation",
    to,
    t("email.consumerSubject"),
    [
      t("email.consumerThanks"),
      t("email.consumerNews", { zip: details.zip }),
      t("email.consumerMeanwhile", { url: plansUrl }),
    ],
    undefined,
    lang,
  );
}

/** An agent's confirmation, in the language they signed up in (the agent pages are English, and say so). */
export function waitlistAgentConfirmation(
  to: string,
  details: { zip: string; interest: string; lang?: Language },
): RenderedEmail {
  const lang = details.lang ?? DEFAULT_LANGUAGE;
  const t = tFor(lang);
  return compose(
    "waitlist_agent_confirmation",
    to,
    t("email.agentSubject"),
    [
      t("email.agentThanks"),
      details.interest === "agent_agency" ? t("email.agentLearningAgency") : t("email.agentLearning"),
      t("email.agentDiscovery", { url: `${publicBaseUrl()}/agent-discovery` }),
    ],
    undefined,
    lang,
  );
}

/** The operations team reads English; the line says which language to answer the visitor in. */
function languageLine(lang: Language | undefined): string {
  const code = lang ?? DEFAULT_LANGUAGE;
  return `Language: ${LANGUAGE_NAMES_IN_ENGLISH[code]} (${code}); write back in it`;
}

const LANGUAGE_NAMES_IN_ENGLISH: Record<Language, string> = { en: "English", es: "Spanish" };

export function waitlistOperationsNotification(
  to: string,
  submission: {
    id: string;
    email: string;
    zip: string;
    interest: string;
    source: string;
    createdAt: number;
    lang?: Language;
  },
): RenderedEmail {
  return compose(
    "waitlist_operations_notification",
    to,
    `New waitlist sign-up (${submission.interest})`,
    [
      "A new waitlist sign-up was recorded.",
      [
        `Submission id: ${submission.id}`,
        `Email: ${submission.email}`,
        `ZIP code: ${submission.zip}`,
        `Interest: ${submission.interest}`,
        `Sent from: ${submission.source === "form" ? "the /updates page" : "the API"}`,
        languageLine(submission.lang),
        `Recorded at: ${new Date(submission.createdAt).toISOString()}`,
      ].join("\n"),
    ],
    submission.email,
  );
}

export function discoveryAgentConfirmation(to: string, details: { name: string; lang?: Language }): RenderedEmail {
  const lang = details.lang ?? DEFAULT_LANGUAGE;
  const t = tFor(lang);
  return compose(
    "discovery_agent_confirmation",
    to,
    t("email.discoverySubject"),
    [
      t("email.discoveryHello", { name: details.name }),
      t("email.discoveryThanks"),
      t("email.discoveryFollowUp", { url: `${publicBaseUrl()}/agent-discovery#upload` }),
    ],
    undefined,
    lang,
  );
}

export function discoveryOperationsNotification(
  to: string,
  submission: {
    id: string;
    name: string;
    email: string;
    phone: string;
    npn: string;
    licensedStates: string[];
    agency: string | null;
    currentTools: string[];
    needs: string | null;
    consentVersion: string;
    createdAt: number;
    lang?: Language;
  },
): RenderedEmail {
  return compose(
    "discovery_operations_notification",
    to,
    `New agent discovery form (${submission.licensedStates.join(", ")})`,
    [
      "A new agent discovery form was recorded.",
      [
        `Submission id: ${submission.id}`,
        `Name: ${submission.name}`,
        `Email: ${submission.email}`,
        `Phone: ${submission.phone}`,
        `NPN: ${submission.npn}`,
        `Licensed states: ${submission.licensedStates.join(", ")}`,
        `Agency: ${submission.agency ?? "(none given)"}`,
        `Current tools: ${submission.currentTools.length ? submission.currentTools.join(", ") : "(none given)"}`,
        `Consent wording version: ${submission.consentVersion}`,
        languageLine(submission.lang),
        `Recorded at: ${new Date(submission.createdAt).toISOString()}`,
      ].join("\n"),
      submission.needs ? `What they need:\n${submission.needs}` : "What they need: (not answered)",
    ],
    submission.email,
  );
}

/** The plan summary a shopper asked for (issue 28 item 5): the lines are already worded in their language. */
export function planSummaryEmail(
  to: string,
  details: { subject: string; lines: string[]; lang?: Language },
): RenderedEmail {
  return compose("plan_summary", to, details.subject, details.lines, undefined, details.lang ?? DEFAULT_LANGUAGE);
}
