import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Trans } from "../i18n/trans";
import { isLanguage } from "../i18n/i18n";
import { metaT } from "../i18n/meta";
import { useT } from "../i18n/use-t";
import { ApiError } from "../server/platform/api.server";
import { checkUnsubscribeLink, unsubscribe } from "../server/intake/unsubscribe.server";
import intakeStyles from "../styles/intake.css?url";
import unsubscribeWords from "virtual:english/unsubscribe";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ unsubscribe: unsubscribeWords } as Partial<Catalogue>);

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)("meta.pageTitle", { page: metaT(matches)("unsubscribe.title") }) },
  { name: "robots", content: "noindex" },
];

type PageState =
  | { state: "confirm"; email: string; token: string }
  | { state: "done" }
  | { state: "invalid" }
  | { state: "unavailable" }
  | { state: "error" };

function stateForError(error: unknown): { body: PageState; status: number } {
  if (error instanceof ApiError && error.status === 503) return { body: { state: "unavailable" }, status: 503 };
  if (error instanceof ApiError && error.status === 400) return { body: { state: "invalid" }, status: 400 };
  return { body: { state: "error" }, status: error instanceof ApiError ? error.status : 500 };
}

/** GET /unsubscribe?email=&token= : the confirmation page (nothing changes on GET). */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("status") === "done") return data<PageState>({ state: "done" });
  const email = url.searchParams.get("email");
  const token = url.searchParams.get("token");
  try {
    checkUnsubscribeLink(email, token);
  } catch (error) {
    const { body, status } = stateForError(error);
    return data<PageState>(body, { status });
  }
  return data<PageState>({ state: "confirm", email: email!.trim(), token: token! });
}

/** POST /unsubscribe: the page's button (or a one-click POST to this URL). Idempotent. */
export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const email = String(form.get("email") ?? url.searchParams.get("email") ?? "");
  const token = String(form.get("token") ?? url.searchParams.get("token") ?? "");
  try {
    await unsubscribe(email, token, form.get("List-Unsubscribe") === "One-Click" ? "one_click" : "page");
  } catch (error) {
    const { body, status } = stateForError(error);
    return data<PageState>(body, { status });
  }
  const lang = url.searchParams.get("lang");
  return redirect(isLanguage(lang) ? `/unsubscribe?status=done&lang=${lang}` : "/unsubscribe?status=done");
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const page = (acted ?? loaded) as PageState;
  const t = useT();

  if (page.state === "done") {
    return (
      <>
        <h1>{t("unsubscribe.doneTitle")}</h1>
        <div className="success-panel" role="status">
          <p>{t("unsubscribe.done")}</p>
        </div>
        <p>
          <Link to="/">{t("unsubscribe.back")}</Link>
        </p>
      </>
    );
  }
  if (page.state === "confirm") {
    return (
      <>
        <h1>{t("unsubscribe.confirmTitle")}</h1>
        <p>
          <Trans
            t={t}
            i18nKey="unsubscribe.confirm"
            values={{ email: page.email }}
            components={{ email: <strong /> }}
          />
        </p>
        <Form method="post" className="intake-form">
          <input type="hidden" name="email" value={page.email} />
          <input type="hidden" name="token" value={page.token} />
          <button type="submit">{t("unsubscribe.button")}</button>
        </Form>
        <p className="hint">{t("unsubscribe.changedMind")}</p>
      </>
    );
  }
  if (page.state === "unavailable") {
    return (
      <>
        <h1>{t("unsubscribe.unavailableTitle")}</h1>
        <p className="notice warn" role="alert">
          {t("unsubscribe.unavailable")}
        </p>
      </>
    );
  }
  if (page.state === "invalid") {
    return (
      <>
        <h1>{t("unsubscribe.invalidTitle")}</h1>
        <p className="notice bad" role="alert">
          {t("unsubscribe.invalid")}
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{t("unsubscribe.errorTitle")}</h1>
      <p className="notice bad" role="alert">
        {t("unsubscribe.error")}
      </p>
    </>
  );
}
