import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { TFunction } from "i18next";
import { FieldError } from "../components/field-error";
import type { Language } from "../i18n/i18n";
import { metaT } from "../i18n/meta";
import { usePageLanguage, useT } from "../i18n/use-t";
import { formatCents } from "../lib/format";
import type { RenewalResponse } from "../schemas/renewal";
import { renewPage, type RenewPage } from "../server/renewal/renew-page.server";
import intakeStyles from "../styles/intake.css?url";
import renewWords from "virtual:english/renew";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ renew: renewWords } as Partial<Catalogue>);

// GET /renew (issue 27): a returning shopper's plan next year, in one screen. A GET form: works
// without JavaScript, the answer's address can be kept. The rules it states: docs/decisions/343.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [{ title: t("meta.pageTitle", { page: t("renew.title") }) }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await renewPage(new URL(request.url));
  const status = Object.keys(page.errors).length > 0 ? 400 : 200;
  return data<RenewPage>(page, { status, headers: { "cache-control": "no-store" } });
}

const dollars = (n: number | null | undefined, lang: Language) =>
  n === null || n === undefined ? "—" : formatCents(Math.round(n * 100), lang);

function coverageWord(t: TFunction, c: { coverage: string } | null): string {
  return c ? t(`renew.coverage.${c.coverage}`) : t("renew.coverage.noPlan");
}

function Answer({ answer, lang, t }: { answer: RenewalResponse; lang: Language; t: TFunction }) {
  const { current, next, changes } = answer;
  const was = dollars(current.plan.premium_w_credit, lang);
  return (
    <section aria-labelledby="renew-answer" className="renew-answer">
      <h2 id="renew-answer" tabIndex={-1}>
        {t("renew.answerTitle", { year: next?.year ?? current.year + 1 })}
      </h2>
      <p>{t("renew.yourPlan", { name: current.plan.name, id: answer.plan_id, issuer: current.plan.issuer.name })}</p>
      <p>
        <strong>
          {t(`renew.outcome.${answer.outcome}`, { name: next?.plan.name ?? "", issuer: next?.plan.issuer.name ?? "" })}
        </strong>
      </p>
      {next && changes ? (
        <ul>
          <li>{t("renew.premiumLine", { now: dollars(next.plan.premium_w_credit, lang), was, year: next.year })}</li>
          <li>
            {t("renew.deductibleLine", {
              now: dollars(changes.deductible.to, lang),
              was: dollars(changes.deductible.from, lang),
            })}
          </li>
          <li>{t("renew.moopLine", { now: dollars(changes.moop.to, lang), was: dollars(changes.moop.from, lang) })}</li>
          <li>
            {t("renew.creditLine", { now: dollars(next.aptc ?? 0, lang), was: dollars(current.aptc ?? 0, lang) })}
          </li>
        </ul>
      ) : (
        <p>{t("renew.noSuccessorAdvice", { was })}</p>
      )}
      {answer.next_not_priced ? <p>{t("renew.notPriced")}</p> : null}
      {answer.drugs.length > 0 ? (
        <>
          <h3>{t("renew.drugsTitle")}</h3>
          <ul>
            {answer.drugs.map((d) => (
              <li key={d.rxcui}>
                {t("renew.drugLine", {
                  name: d.name ?? d.rxcui,
                  now: coverageWord(t, d.next),
                  was: coverageWord(t, d.current),
                })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {answer.crosswalk ? (
        <p className="renew-source">
          {t("renew.crosswalkSource", {
            level: answer.crosswalk.level,
            reason: answer.crosswalk.reason ?? "—",
            from: answer.crosswalk.from_year,
            to: answer.crosswalk.to_year,
          })}
        </p>
      ) : null}
      <h3>{answer.next ? t("renew.alternativesTitle") : t("renew.alternativesNoSuccessor")}</h3>
      {answer.alternatives.length === 0 ? (
        <p>{t("renew.noAlternatives")}</p>
      ) : (
        <ol>
          {answer.alternatives.map((a) => (
            <li key={a.plan.id}>
              <strong>{a.plan.name}</strong> ({a.plan.issuer.name}, {a.plan.id}):{" "}
              {t("renew.alternativeLine", {
                premium: dollars(a.plan.premium_w_credit, lang),
                deductible: dollars(a.plan.deductible.individual, lang),
                yearly: dollars(a.yearly_cost, lang),
              })}
              {a.saves_per_year !== null ? ` ${t("renew.saves", { amount: dollars(a.saves_per_year, lang) })}` : ""}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Rules({ t, years }: { t: TFunction; years: { current: number; next: number } }) {
  return (
    <section aria-labelledby="renew-rules">
      <h2 id="renew-rules">{t("renew.rules.title", { year: years.next })}</h2>
      <ul>
        <li>{t("renew.rules.openEnrollment")}</li>
        <li>{t("renew.rules.autoRenew")}</li>
        <li>{t("renew.rules.fiveDollars")}</li>
        <li>{t("renew.rules.checked")}</li>
      </ul>
    </section>
  );
}

export default function Renew() {
  const page = useLoaderData<typeof loader>();
  const t = useT();
  const lang = usePageLanguage();
  const { form, errors } = page;
  const err = (name: string) =>
    errors[name] ? t(`renew.errors.${errors[name].key}`, errors[name].values ?? {}) : undefined;
  const groups = new Map<string, typeof page.planChoices>();
  for (const p of page.planChoices) groups.set(p.issuer, [...(groups.get(p.issuer) ?? []), p]);
  return (
    <>
      <h1>{t("renew.title")}</h1>
      <p>{t("renew.intro", { current: page.years?.current ?? "", next: page.years?.next ?? "" })}</p>
      {errors.form ? (
        <p role="alert" className="error-summary">
          {err("form")}
        </p>
      ) : null}
      <Form method="get" action="/renew" noValidate>
        <p>
          <label htmlFor="renew-zip">{t("renew.zip")}</label>
          <input id="renew-zip" name="zip" inputMode="numeric" autoComplete="postal-code" defaultValue={form.zip} />
          <FieldError id="renew-zip-error" message={err("zip")} />
        </p>
        {page.counties.length > 1 ? (
          <p>
            <label htmlFor="renew-county">{t("renew.county")}</label>
            <select id="renew-county" name="county" defaultValue={form.county}>
              {page.counties.map((c) => (
                <option key={c.fips} value={c.fips}>
                  {c.name}
                </option>
              ))}
            </select>
          </p>
        ) : (
          <input type="hidden" name="county" value={form.county} />
        )}
        <FieldError id="renew-county-error" message={err("county")} />
        <p>
          <label htmlFor="renew-plan">{t("renew.plan")}</label>
          <input id="renew-plan" name="plan" defaultValue={form.plan} aria-describedby="renew-plan-help" />
          <FieldError id="renew-plan-error" message={err("plan")} />
        </p>
        <details id="renew-plan-help">
          <summary>{t("renew.planHelpTitle")}</summary>
          <ul>
            <li>{t("renew.planHelpCard", { label: t("renew.cardLabel") })}</li>
            <li>{t("renew.planHelpNotice")}</li>
            <li>{t("renew.planHelpAccount")}</li>
          </ul>
        </details>
        {page.planChoices.length > 0 ? (
          <p>
            <label htmlFor="renew-pick">{t("renew.pick", { year: page.years?.current ?? "" })}</label>
            <select id="renew-pick" name="pick" defaultValue={form.pick}>
              <option value="">{t("renew.pickNone")}</option>
              {[...groups].map(([issuer, plans]) => (
                <optgroup key={issuer} label={issuer}>
                  {plans.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({p.id})
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </p>
        ) : (
          <p className="hint">{t("renew.pickAfterZip")}</p>
        )}
        <p>
          <label htmlFor="renew-ages">{t("renew.ages")}</label>
          <input id="renew-ages" name="ages" defaultValue={form.ages} />
          <FieldError id="renew-ages-error" message={err("ages")} />
        </p>
        <p>
          <label htmlFor="renew-income">{t("renew.income", { year: page.years?.next ?? "" })}</label>
          <input id="renew-income" name="income" inputMode="decimal" defaultValue={form.income} />
          <FieldError id="renew-income-error" message={err("income")} />
        </p>
        <p>
          <label htmlFor="renew-drugs">{t("renew.drugs")}</label>
          <input id="renew-drugs" name="drugs" defaultValue={form.drugs} />
        </p>
        {page.drugsNotFound.length > 0 ? (
          <p className="hint">{t("renew.drugsNotFound", { names: page.drugsNotFound.join(", ") })}</p>
        ) : null}
        <p>
          <button type="submit">{t("renew.submit")}</button>
        </p>
      </Form>
      {page.answer ? <Answer answer={page.answer} lang={lang} t={t} /> : null}
      {page.years ? <Rules t={t} years={page.years} /> : null}
      <p>
        <Link to="/">{t("renew.shopInstead")}</Link>
      </p>
    </>
  );
}
