import { Link } from "@remix-run/react";
import { ZipForm } from "../components/zip-form";

export default function Home() {
  return (
    <>
      <h1>See what a Marketplace health plan would cost you</h1>
      <p>
        If you buy your own health insurance in the United States, you may qualify for a premium tax credit that lowers
        your monthly bill, and for extra savings on deductibles and copays. Tell us your ZIP code, who needs coverage
        and your expected yearly income, and we will show you the plans sold where you live, priced for your household
        before and after the credit.
      </p>
      <ZipForm />
      <h2>What you can do here</h2>
      <ul>
        <li>Estimate your monthly tax credit and whether you qualify for lower out-of-pocket costs.</li>
        <li>Compare plans by monthly premium, deductible, out-of-pocket maximum and estimated yearly cost.</li>
        <li>Check whether your prescription drugs and doctors are covered by each plan.</li>
        <li>Learn where to go instead if your state runs its own marketplace, or if you may qualify for Medicaid.</li>
      </ul>
      <p>
        Are you a licensed insurance agent? <Link to="/agents">See what we are building for agents</Link>.
      </p>
    </>
  );
}
