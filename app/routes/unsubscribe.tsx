import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ApiError } from "../server/platform/api.server";
import { checkUnsubscribeLink, unsubscribe } from "../server/intake/unsubscribe.server";
import intakeStyles from "../styles/intake.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = () => [
  { title: "Unsubscribe | Health Plan Marketplace" },
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
  return redirect("/unsubscribe?status=done");
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const page = (acted ?? loaded) as PageState;

  if (page.state === "done") {
    return (
      <>
        <h1>You are unsubscribed</h1>
        <div className="success-panel" role="status">
          <p>We will not send any more email to this address. You do not need to do anything else.</p>
        </div>
        <p>
          <Link to="/">Back to Health Plan Marketplace</Link>
        </p>
      </>
    );
  }
  if (page.state === "confirm") {
    return (
      <>
        <h1>Unsubscribe from our emails?</h1>
        <p>
          Press the button to stop all email from Health Plan Marketplace to <strong>{page.email}</strong>.
        </p>
        <Form method="post" className="intake-form">
          <input type="hidden" name="email" value={page.email} />
          <input type="hidden" name="token" value={page.token} />
          <button type="submit">Unsubscribe</button>
        </Form>
        <p className="hint">Changed your mind? Just close this page: nothing changes until you press the button.</p>
      </>
    );
  }
  if (page.state === "unavailable") {
    return (
      <>
        <h1>Unsubscribe is not available right now</h1>
        <p className="notice warn" role="alert">
          We cannot check unsubscribe links at the moment. Please try again later, or reply to any of our emails and ask
          us to stop writing; we will.
        </p>
      </>
    );
  }
  if (page.state === "invalid") {
    return (
      <>
        <h1>This unsubscribe link does not work</h1>
        <p className="notice bad" role="alert">
          The link is incomplete or has been changed. Open the unsubscribe link from the most recent email we sent you,
          or reply to that email and ask us to stop writing.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Something went wrong</h1>
      <p className="notice bad" role="alert">
        We could not record your request just now. Please try the link again in a few minutes.
      </p>
    </>
  );
}
