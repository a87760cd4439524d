// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { LegalHeader, RetentionTable } from "../../../app/components/legal-facts";
import { legalFacts, RECORD_KINDS } from "../../../app/server/pages/legal-page.server";
import { resetEnvForTests } from "../../../app/server/platform/env.server";

/** Issue 28 item 8: the legal pages name the operator, contact, effective date, retention per record kind and vendors, from the settings. */

const KEYS = [
  "LEGAL_OPERATOR",
  "LEGAL_CONTACT",
  "LEGAL_EFFECTIVE_DATE",
  "RETENTION_LOGS_DAYS",
  "POSTHOG_API_KEY",
  "EMAIL_PROVIDER",
] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

afterEach(() => {
  cleanup();
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvForTests();
});

describe("legal facts", () => {
  it("have safe defaults: an operator, the operations address, a date, every record kind, the email vendor, analytics off without a key", () => {
    for (const k of KEYS) delete process.env[k];
    resetEnvForTests();
    const facts = legalFacts();
    expect(facts.operator).toBe("the operator of Health Plan Marketplace");
    expect(facts.contact).toMatch(/@/);
    expect(facts.effectiveDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(facts.retentionDays)).toEqual([...RECORD_KINDS]);
    expect(facts.retentionDays).toEqual({ waitlist: 730, discovery: 730, uploads: 365, logs: 30, outbox: 90 });
    expect(facts.emailVendor).toBe("Resend");
    expect(facts.analyticsVendor).toBeNull();
  });

  it("follow the settings, and the page shows them", () => {
    Object.assign(process.env, {
      LEGAL_OPERATOR: "Acme Health Navigation LLC",
      LEGAL_CONTACT: "privacy@acme.example",
      LEGAL_EFFECTIVE_DATE: "2027-01-15",
      RETENTION_LOGS_DAYS: "14",
      POSTHOG_API_KEY: "phc_test",
      EMAIL_PROVIDER: "ses",
    });
    resetEnvForTests();
    const facts = legalFacts();
    expect(facts.emailVendor).toBe("Amazon Simple Email Service (SES)");
    expect(facts.analyticsVendor).toBe("PostHog");
    const { container } = render(
      <>
        <LegalHeader facts={facts} />
        <RetentionTable facts={facts} />
      </>,
    );
    expect(container.textContent).toContain("This site is run by Acme Health Navigation LLC.");
    expect(container.querySelector("a[href='mailto:privacy@acme.example']")).not.toBeNull();
    expect(container.textContent).toContain("This page takes effect on January 15, 2027.");
    expect(container.querySelector("tr[data-kind=logs] td")?.textContent).toBe("14 days");
    expect(container.querySelectorAll("tbody tr")).toHaveLength(5);
  });
});
