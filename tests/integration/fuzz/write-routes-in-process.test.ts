import * as agentsDiscovery from "../../../app/routes/api.agents.discovery";
import * as enrollApplications from "../../../app/routes/api.enroll.applications";
import * as waitlist from "../../../app/routes/api.waitlist";
import { plausibleEnrollment, validDiscovery, validEnrollment, validWaitlist } from "./generators";
import { fuzzJsonRoutesInProcess } from "./json-route-suite";

// The JSON routes that write to the write store: waitlist, agent discovery, enrollment applications.
fuzzJsonRoutesInProcess("write routes", [
  { path: "/api/waitlist", route: waitlist, valid: validWaitlist, numRuns: 2_000 },
  { path: "/api/agents/discovery", route: agentsDiscovery, valid: validDiscovery, numRuns: 2_000 },
  {
    path: "/api/enroll/applications",
    route: enrollApplications,
    valid: validEnrollment,
    plausible: plausibleEnrollment,
    numRuns: 2_000,
  },
]);
