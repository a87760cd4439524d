/**
 * Service Area PUF (service-area-puf.csv). Keyed by (year, issuer, service
 * area id); one row per county, or one statewide row, or a partial county with
 * its ZIP list ("48114, 48116, …"). Formats: puf-formats.md §6.
 */
import { cleanText, padCode, parseYesNo, stateOfCounty } from "../../db/plan-store-values";
import { column, marketCheck, reject, row, yearCheck, type CsvFormat, type Parsed } from "./types";

export type ServiceAreaRecord = {
  planYear: number;
  state: string;
  issuerId: string;
  serviceAreaId: string;
  serviceAreaName: string | null;
  coverEntireState: boolean;
  /** "" for a statewide row. */
  countyFips: string;
  partialCounty: boolean;
  zips: string[];
};

export const serviceAreaFormat: CsvFormat<ServiceAreaRecord> = {
  name: "service-area-puf",
  required: [["StateCode"], ["IssuerId"], ["ServiceAreaId"], ["CoverEntireState"], ["County"]],
  create(header, options) {
    const c = (...n: string[]) => column(header, ...n);
    const year = yearCheck(header, options);
    const market = marketCheck(header);
    const businessYear = c("BusinessYear");
    const f = {
      state: c("StateCode"),
      issuerId: c("IssuerId"),
      id: c("ServiceAreaId"),
      name: c("ServiceAreaName"),
      entire: c("CoverEntireState"),
      county: c("County"),
      partial: c("PartialCounty"),
      zips: c("ZipCodes"),
    };
    return (fields): Parsed<ServiceAreaRecord> => {
      const wrongYear = year(fields);
      if (wrongYear) return wrongYear;
      const wrongMarket = market(fields);
      if (wrongMarket) return wrongMarket;
      const state = f.state(fields).toUpperCase();
      if (!/^[A-Z]{2}$/.test(state)) return reject("malformed StateCode");
      const issuerId = f.issuerId(fields);
      if (!/^[0-9]{5}$/.test(issuerId)) return reject("malformed IssuerId");
      const serviceAreaId = f.id(fields).toUpperCase();
      if (!serviceAreaId) return reject("missing ServiceAreaId");
      const yearText = businessYear(fields);
      const planYear = options.year ?? (/^[0-9]{4}$/.test(yearText) ? Number(yearText) : NaN);
      if (!Number.isFinite(planYear)) return reject("malformed BusinessYear");
      const entire = parseYesNo(f.entire(fields));
      const base = { planYear, state, issuerId, serviceAreaId, serviceAreaName: cleanText(f.name(fields)) };
      if (entire === true) {
        return row({ ...base, coverEntireState: true, countyFips: "", partialCounty: false, zips: [] });
      }
      if (entire === null) return reject("unknown CoverEntireState value");
      // Some pipelines lost the leading zero (4-digit FIPS for AL, AK, AZ, AR …).
      const countyFips = padCode(f.county(fields), 5);
      if (countyFips === null || countyFips === "00000") return reject("malformed County FIPS");
      if (stateOfCounty(countyFips) !== state) return reject("County FIPS is not in StateCode");
      const partial = parseYesNo(f.partial(fields)) === true;
      if (!partial) return row({ ...base, coverEntireState: false, countyFips, partialCounty: false, zips: [] });
      const list = f
        .zips(fields)
        .split(/[\s,;]+/)
        .filter((z) => z !== "");
      if (list.length === 0) return reject("partial county without ZipCodes");
      const zips: string[] = [];
      for (const z of list) {
        const zip = padCode(z.replace(/-\d{4}$/, ""), 5);
        if (zip === null) return reject("malformed ZIP in ZipCodes");
        zips.push(zip);
      }
      return row({ ...base, coverEntireState: false, countyFips, partialCounty: true, zips: [...new Set(zips)] });
    };
  },
};
