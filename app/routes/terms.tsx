import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Terms of use | Health Plan Marketplace" }];

export default function Terms() {
  return (
    <>
      <h1>Terms of use</h1>
      <h2>Estimates, not decisions</h2>
      <p>
        The tax credits, savings levels and prices shown here are estimates from public rules and plan data. Your
        official eligibility and prices are decided by HealthCare.gov or your state&apos;s marketplace when you apply.
        Check the plan&apos;s own documents before you enroll.
      </p>
      <h2>Plan information</h2>
      <p>
        Plan details come from the public files insurers file with the Centers for Medicare &amp; Medicaid Services and
        from the HealthCare.gov Marketplace API. Insurers can change provider networks and drug lists during the year.
        When we do not know whether a drug or doctor is covered, we say so instead of guessing.
      </p>
      <h2>Using the site</h2>
      <p>
        Please do not try to break, overload or scrape the service. We limit how many requests one address can make in a
        few minutes so the site stays available to everyone.
      </p>
      <h2>Agents</h2>
      <p>
        The agent pages collect information to help us design tools for licensed agents. Sending a form does not create
        an appointment, contract or commission arrangement with anyone.
      </p>
    </>
  );
}
