import type { MetaFunction } from "@remix-run/node";
import { ZipForm } from "../components/zip-form";

export const meta: MetaFunction = () => [{ title: "Find a plan | Health Plan Marketplace" }];

export default function PlansStart() {
  return (
    <>
      <h1>Find a plan</h1>
      <p>Start with your ZIP code. Next you will tell us who needs coverage and your expected income for the year.</p>
      <ZipForm />
    </>
  );
}
