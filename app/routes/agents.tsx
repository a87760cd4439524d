import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import intakeStyles from "../styles/intake.css?url";
import { EnglishOnly } from "../components/english-only";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = () => [
  { title: "For agents | Health Plan Marketplace" },
  {
    name: "description",
    content: "What we are exploring for licensed agents and brokers who enroll clients in Marketplace plans.",
  },
];

export default function Agents() {
  return (
    <EnglishOnly>
      <h1>For licensed agents and brokers</h1>
      <p>
        Health Plan Marketplace helps people in the United States compare subsidised health plans: it estimates their
        premium tax credit, prices the plans sold where they live, and checks their drugs and doctors against each plan.
      </p>
      <p>
        Many people enroll with the help of a licensed agent or broker. We would like the same comparisons to be useful
        to you and your clients. <strong>We have not built any agent features yet.</strong> We are in a discovery phase:
        talking to agents, learning how you quote and enroll today, and deciding what is worth building first.
      </p>

      <h2>What we are exploring</h2>
      <ul>
        <li>Sharing a plan comparison with a client, with their drugs and doctors already checked.</li>
        <li>Keeping a client&apos;s household and income details in one place across renewals, with their consent.</li>
        <li>Fewer re-typed forms between quoting, the client&apos;s documents and the enrollment itself.</li>
      </ul>
      <p>None of this is promised: what we build depends on what agents tell us.</p>

      <h2>How you can help</h2>
      <ol className="steps">
        <li>
          <Link to="/agent-discovery">Fill in the agent discovery form</Link>: about ten minutes on how you work and
          what slows you down. You can also share a blank copy of a form you use with clients.
        </li>
        <li>
          <Link to="/updates?interest=agent_independent">Join the agent waitlist</Link> to hear when there is something
          to try.
        </li>
        <li>
          Read <Link to="/agent-onboarding">what agent onboarding will involve</Link> once it opens.
        </li>
      </ol>

      <h2>What we will not do</h2>
      <ul>
        <li>We will not sell or share your details or your clients&apos; details.</li>
        <li>We will not contact your clients.</li>
        <li>We will not ask for a client&apos;s personal information during discovery.</li>
      </ul>
    </EnglishOnly>
  );
}
