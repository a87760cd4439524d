import * as drugsAutocomplete from "../../../app/routes/api.drugs.autocomplete";
import * as drugsCovered from "../../../app/routes/api.drugs.covered";
import * as eligibility from "../../../app/routes/api.eligibility";
import * as plans from "../../../app/routes/api.plans";
import * as providersAutocomplete from "../../../app/routes/api.providers.autocomplete";
import * as providersCovered from "../../../app/routes/api.providers.covered";
import {
  plausibleDrugAutocomplete,
  plausibleDrugCovered,
  plausiblePlans,
  plausibleProviderAutocomplete,
  plausibleProviderCovered,
  plausibleShopping,
  validDrugAutocomplete,
  validDrugCovered,
  validPlans,
  validProviderAutocomplete,
  validProviderCovered,
  validShopping,
} from "./generators";
import { fuzzJsonRoutesInProcess } from "./json-route-suite";

// Eligibility and plans (own data for NY, the fake upstream for TX) and the
// four drug and doctor look-ups (the fake upstream plus own rows).
fuzzJsonRoutesInProcess("shopping and look-up routes", [
  {
    path: "/api/eligibility",
    route: eligibility,
    valid: validShopping,
    plausible: plausibleShopping,
    numRuns: 1_500,
    callsUpstream: true,
  },
  { path: "/api/plans", route: plans, valid: validPlans, plausible: plausiblePlans, numRuns: 1_000 },
  {
    path: "/api/drugs/autocomplete",
    route: drugsAutocomplete,
    valid: validDrugAutocomplete,
    plausible: plausibleDrugAutocomplete,
    numRuns: 1_500,
    callsUpstream: true,
  },
  {
    path: "/api/drugs/covered",
    route: drugsCovered,
    valid: validDrugCovered,
    plausible: plausibleDrugCovered,
    numRuns: 1_500,
    callsUpstream: true,
  },
  {
    path: "/api/providers/autocomplete",
    route: providersAutocomplete,
    valid: validProviderAutocomplete,
    plausible: plausibleProviderAutocomplete,
    numRuns: 1_500,
    callsUpstream: true,
  },
  {
    path: "/api/providers/covered",
    route: providersCovered,
    valid: validProviderCovered,
    plausible: plausibleProviderCovered,
    numRuns: 1_500,
    callsUpstream: true,
  },
]);
