import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Privacy | Health Plan Marketplace" }];

export default function Privacy() {
  return (
    <>
      <h1>Privacy</h1>
      <p>This page explains what we collect, why, and what we never do with it.</p>
      <h2>When you shop for plans</h2>
      <p>
        The ZIP code, household details and income you enter are used to find your county, estimate your tax credit and
        price plans. They travel in the page address so you can bookmark or share your results; we do not store them in
        an account. To check drug and doctor coverage and to estimate subsidies in most states, we send the details
        needed for that check to the federal HealthCare.gov Marketplace API.
      </p>
      <h2>When you sign up or send us a form</h2>
      <p>
        If you join the waitlist, fill in the agent discovery form, upload a document or start an enrollment
        application, we store what you send so we can reply and follow up. We send you email about that request only,
        and every email has a one-click unsubscribe link.
      </p>
      <h2>Analytics</h2>
      <p>
        We count page visits and button clicks to learn what works. We never send your income, age or email address to
        our analytics provider. Add <code>no_track=1</code> to any address on this site to turn analytics off for your
        visit.
      </p>
      <h2>What we never do</h2>
      <ul>
        <li>We do not sell your information.</li>
        <li>We do not write your email address, income or age into our server logs.</li>
      </ul>
      <h2>Questions</h2>
      <p>Write to the operations team at the address in any email we send you, and we will answer.</p>
    </>
  );
}
