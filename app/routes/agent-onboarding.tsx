import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import intakeStyles from "../styles/intake.css?url";
import { EnglishOnly } from "../components/english-only";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = () => [
  { title: "Agent onboarding | Health Plan Marketplace" },
  {
    name: "description",
    content: "Agent onboarding is not open yet. Here is what it will involve and how to hear when it opens.",
  },
];

export default function AgentOnboarding() {
  return (
    <EnglishOnly>
      <h1>Agent onboarding</h1>
      <p className="notice" role="note">
        <strong>Onboarding is not open yet.</strong> We are still learning what agents need (see the{" "}
        <Link to="/agent-discovery">agent discovery form</Link>). This page explains what we expect onboarding to
        involve, so you know what to have ready.
      </p>

      <h2>Who it will be for</h2>
      <p>
        Licensed health insurance agents and brokers who help consumers enroll in individual and family plans through
        the federal Marketplace (HealthCare.gov) in the states where they are licensed.
      </p>

      <h2>What we expect to ask for</h2>
      <ol className="steps">
        <li>
          <strong>Your National Producer Number (NPN)</strong>, so we can confirm your licence with the national
          producer database.
        </li>
        <li>
          <strong>The states where you hold a health licence.</strong> You will only see tools for clients in those
          states.
        </li>
        <li>
          <strong>Your Marketplace registration for the current plan year.</strong> CMS requires agents and brokers to
          complete its registration and training every plan year before helping consumers enroll through the federal
          Marketplace.
        </li>
        <li>
          <strong>How you record client consent.</strong> Marketplace rules require an agent to have the consumer&apos;s
          documented consent before helping them with an application. We want our tools to fit the way you already do
          this.
        </li>
      </ol>

      <h2>What happens next</h2>
      <p>
        When onboarding opens, we will write to everyone on the agent waitlist first. Until then, the most useful thing
        you can do is tell us how you work.
      </p>
      <p>
        <Link className="button" to="/agent-discovery">
          Fill in the discovery form
        </Link>{" "}
        <Link className="button secondary" to="/updates?interest=agent_independent">
          Join the agent waitlist
        </Link>
      </p>
    </EnglishOnly>
  );
}
