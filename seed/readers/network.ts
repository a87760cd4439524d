/**
 * Network PUF (network-puf.csv, optional): the provider-directory URL of each
 * issuer network, joined to plans on IssuerId + NetworkId. puf-formats.md §8.
 */
import { cleanText } from "../../db/plan-store-values";
import { normalizeUrl } from "./plan-attributes";
import { column, marketCheck, reject, row, yearCheck, type CsvFormat, type Parsed } from "./types";

export type NetworkRecord = {
  planYear: number;
  issuerId: string;
  networkId: string;
  name: string | null;
  url: string | null;
};

export const networkFormat: CsvFormat<NetworkRecord> = {
  name: "network-puf",
  required: [["IssuerId"], ["NetworkId"], ["NetworkURL"]],
  create(header, options) {
    const c = (...n: string[]) => column(header, ...n);
    const year = yearCheck(header, options);
    const market = marketCheck(header);
    const businessYear = c("BusinessYear");
    const f = { issuerId: c("IssuerId"), networkId: c("NetworkId"), name: c("NetworkName"), url: c("NetworkURL") };
    return (fields): Parsed<NetworkRecord> => {
      const wrongYear = year(fields);
      if (wrongYear) return wrongYear;
      const wrongMarket = market(fields);
      if (wrongMarket) return wrongMarket;
      const issuerId = f.issuerId(fields);
      if (!/^[0-9]{5}$/.test(issuerId)) return reject("malformed IssuerId");
      const networkId = f.networkId(fields).toUpperCase();
      if (!networkId) return reject("missing NetworkId");
      // "Indemnity", or two addresses joined by "; ": the network (id, name) is still real;
      // only its directory link is unknown.
      const rawUrl = f.url(fields);
      const url = normalizeUrl(rawUrl);
      const note =
        rawUrl !== "" && url === null ? "NetworkURL not a single http(s) address (recorded as missing)" : undefined;
      const yearText = businessYear(fields);
      const planYear = options.year ?? (/^[0-9]{4}$/.test(yearText) ? Number(yearText) : NaN);
      if (!Number.isFinite(planYear)) return reject("malformed BusinessYear");
      return row({ planYear, issuerId, networkId, name: cleanText(f.name(fields)), url }, note);
    };
  },
};
