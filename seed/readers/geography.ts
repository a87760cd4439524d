/**
 * Geography and marketplace facts:
 * - states.csv (our transcription of the CMS marketplace-type fact sheet)
 * - national-county2020.txt (Census county list, pipe-delimited)
 * - zip-county-hud.csv (HUD USPS ZIP–county crosswalk)
 * - zcta-county-census2020.txt (Census 2020 ZCTA–county relationship file)
 * - rating-areas-by-county.csv and rating-areas-by-zip3.csv (CMS GRA pages)
 * Formats: puf-formats.md §7 and §11; docs/data.md.
 *
 * Codes are read as text and zero-padded (ZIP 5, county FIPS 5, ZIP3 3): a
 * spreadsheet round trip often drops the leading zero.
 */
import { EXCHANGE_KINDS, type ExchangeKind } from "../../db/plan-store";
import {
  cleanText,
  padCode,
  parseDecimal,
  parseRatingArea,
  parseYesNo,
  stateOfCounty,
  STATE_BY_FIPS,
} from "../../db/plan-store-values";
import { normalizeUrl } from "./plan-attributes";
import { column, reject, row, skip, type CsvFormat, type Parsed } from "./types";

// ---------------------------------------------------------------- states.csv

export type StateRecord = {
  planYear: number;
  code: string;
  name: string;
  exchangeKind: ExchangeKind;
  marketplaceName: string | null;
  marketplaceUrl: string | null;
  ownedData: boolean;
};

export const statesFormat: CsvFormat<StateRecord> = {
  name: "states",
  required: [["plan_year"], ["state_code"], ["state_name"], ["exchange_kind"], ["owned_data"]],
  create(header) {
    const c = (...n: string[]) => column(header, ...n);
    const f = {
      year: c("plan_year"),
      code: c("state_code"),
      name: c("state_name"),
      kind: c("exchange_kind"),
      mName: c("marketplace_name"),
      mUrl: c("marketplace_url"),
      owned: c("owned_data"),
    };
    return (fields): Parsed<StateRecord> => {
      const y = f.year(fields);
      if (!/^[0-9]{4}$/.test(y)) return reject("malformed plan_year");
      const code = f.code(fields).toUpperCase();
      if (!/^[A-Z]{2}$/.test(code)) return reject("malformed state_code");
      const name = f.name(fields);
      if (!name) return reject("missing state_name");
      const kind = f.kind(fields).toLowerCase() as ExchangeKind;
      if (!EXCHANGE_KINDS.includes(kind))
        return reject(`unknown exchange_kind (expected ${EXCHANGE_KINDS.join(", ")})`);
      const owned = parseYesNo(f.owned(fields));
      if (owned === null) return reject("malformed owned_data");
      const rawUrl = f.mUrl(fields);
      const marketplaceUrl = normalizeUrl(rawUrl);
      if (rawUrl !== "" && marketplaceUrl === null) return reject("malformed marketplace_url");
      return row({
        planYear: Number(y),
        code,
        name,
        exchangeKind: kind,
        marketplaceName: cleanText(f.mName(fields)),
        marketplaceUrl,
        ownedData: owned,
      });
    };
  },
};

// ---------------------------------------------------------------- counties

export type CountyRecord = { fips: string; name: string; state: string };

/** The Census county list's columns when it comes without its header line (2020+ pipe file, 2010 comma file). */
const COUNTY_LIST_COLUMNS: Record<number, string[]> = {
  7: ["STATE", "STATEFP", "COUNTYFP", "COUNTYNS", "COUNTYNAME", "CLASSFP", "FUNCSTAT"],
  5: ["STATE", "STATEFP", "COUNTYFP", "COUNTYNAME", "CLASSFP"],
};

export const countiesFormat: CsvFormat<CountyRecord> = {
  name: "national-county",
  delimiter: "auto",
  required: [["STATEFP"], ["COUNTYFP"], ["COUNTYNAME"]],
  // A first line like "AK|02|013|…" is data: the Census Bureau publishes the list with and without a header.
  headerless(first) {
    const looksLikeData = /^[A-Z]{2}$/i.test(first[0]?.trim() ?? "") && /^[0-9]{1,2}$/.test(first[1]?.trim() ?? "");
    return looksLikeData ? (COUNTY_LIST_COLUMNS[first.length] ?? null) : null;
  },
  create(header) {
    const c = (...n: string[]) => column(header, ...n);
    const f = { state: c("STATE"), statefp: c("STATEFP"), countyfp: c("COUNTYFP"), name: c("COUNTYNAME") };
    return (fields): Parsed<CountyRecord> => {
      const statefp = padCode(f.statefp(fields), 2);
      const countyfp = padCode(f.countyfp(fields), 3);
      if (statefp === null || countyfp === null) return reject("malformed STATEFP or COUNTYFP");
      const name = f.name(fields);
      if (!name) return reject("missing COUNTYNAME");
      const state = f.state(fields).toUpperCase() || STATE_BY_FIPS[statefp];
      if (!state || !/^[A-Z]{2}$/.test(state)) return reject("unknown state");
      return row({ fips: statefp + countyfp, name, state });
    };
  },
};

// ---------------------------------------------------------------- ZIP → county

export type ZipCountyRecord = {
  source: "hud" | "census";
  zip: string;
  countyFips: string;
  /** The county's state (from its FIPS code), not the ZIP's postal state. */
  state: string;
  countyName: string | null;
  share: number;
};

/** HUD USPS ZIP–county crosswalk (2020+ headers; also the lower-case excerpt in seed/reference). */
export const hudZipCountyFormat: CsvFormat<ZipCountyRecord> = {
  name: "zip-county-hud",
  delimiter: "auto",
  required: [["ZIP"], ["COUNTY", "county_fips", "GEOID"], ["TOT_RATIO"]],
  create(header) {
    const c = (...n: string[]) => column(header, ...n);
    const f = {
      zip: c("ZIP"),
      county: c("COUNTY", "county_fips", "GEOID"),
      ratio: c("TOT_RATIO"),
      name: c("county_name"),
    };
    return (fields): Parsed<ZipCountyRecord> => {
      const zip = padCode(f.zip(fields), 5);
      if (zip === null) return reject("malformed ZIP");
      const countyFips = padCode(f.county(fields), 5);
      if (countyFips === null) return reject("malformed COUNTY FIPS");
      const state = stateOfCounty(countyFips);
      if (!state) return reject("unknown state FIPS prefix");
      const share = parseDecimal(f.ratio(fields));
      if (share === null || share < 0 || share > 1.0001) return reject("malformed TOT_RATIO");
      return row({
        source: "hud",
        zip,
        countyFips,
        state,
        countyName: cleanText(f.name(fields)),
        share: Math.min(share, 1),
      });
    };
  },
};

/**
 * Census 2020 ZCTA–county relationship file (pipe-delimited, 18 columns);
 * share = AREALAND_PART / AREALAND_ZCTA5_20. Rows without a ZCTA are county
 * parts outside any ZCTA and are skipped. Also reads the comma-separated
 * excerpt in seed/reference (zcta, county_fips, …, land_share).
 */
export const censusZctaCountyFormat: CsvFormat<ZipCountyRecord> = {
  name: "zcta-county-census",
  delimiter: "auto",
  required: [
    ["GEOID_ZCTA5_20", "zcta"],
    ["GEOID_COUNTY_20", "county_fips"],
  ],
  create(header) {
    const c = (...n: string[]) => column(header, ...n);
    const f = {
      zcta: c("GEOID_ZCTA5_20", "zcta"),
      county: c("GEOID_COUNTY_20", "county_fips"),
      name: c("NAMELSAD_COUNTY_20", "county_name"),
      landPart: c("AREALAND_PART", "arealand_part_m2"),
      landZcta: c("AREALAND_ZCTA5_20"),
      landShare: c("land_share"),
    };
    const hasShare = header.has("land_share");
    if (!hasShare && (!header.has("AREALAND_PART") || !header.has("AREALAND_ZCTA5_20"))) {
      throw new Error("missing land share columns (AREALAND_PART and AREALAND_ZCTA5_20, or land_share)");
    }
    return (fields): Parsed<ZipCountyRecord> => {
      const rawZcta = f.zcta(fields);
      if (rawZcta === "") return skip("county part outside any ZCTA");
      const zip = padCode(rawZcta, 5);
      if (zip === null) return reject("malformed ZCTA");
      const countyFips = padCode(f.county(fields), 5);
      if (countyFips === null) return reject("malformed county GEOID");
      const state = stateOfCounty(countyFips);
      if (!state) return reject("unknown state FIPS prefix");
      let share: number | null;
      if (hasShare) {
        share = parseDecimal(f.landShare(fields));
      } else {
        const part = parseDecimal(f.landPart(fields));
        const whole = parseDecimal(f.landZcta(fields));
        // A water-only ZCTA has no land: its parts get share 0 but still map the ZIP.
        share = part === null || whole === null ? null : whole > 0 ? part / whole : 0;
      }
      if (share === null || share < 0 || share > 1.0001) return reject("malformed land area");
      return row({
        source: "census",
        zip,
        countyFips,
        state,
        countyName: cleanText(f.name(fields)),
        share: Math.min(share, 1),
      });
    };
  },
};

// ---------------------------------------------------------------- rating areas

export type RatingAreaCountyRecord = {
  state: string;
  countyFips: string;
  countyName: string | null;
  ratingArea: number;
};
export type RatingAreaZip3Record = { state: string; zip3: string; ratingArea: number };

export const ratingAreaCountyFormat: CsvFormat<RatingAreaCountyRecord> = {
  name: "rating-areas-by-county",
  delimiter: "auto",
  required: [["state"], ["county_fips"], ["rating_area_id", "rating_area"]],
  create(header) {
    const c = (...n: string[]) => column(header, ...n);
    const f = {
      state: c("state"),
      county: c("county_fips"),
      name: c("county_name"),
      area: c("rating_area_id", "rating_area"),
    };
    return (fields): Parsed<RatingAreaCountyRecord> => {
      const state = f.state(fields).toUpperCase();
      if (!/^[A-Z]{2}$/.test(state)) return reject("malformed state");
      const countyFips = padCode(f.county(fields), 5);
      if (countyFips === null) return reject("malformed county_fips");
      if (stateOfCounty(countyFips) !== state) return reject("county_fips is not in state");
      const ratingArea = parseRatingArea(f.area(fields));
      if (ratingArea === null) return reject("malformed rating_area_id");
      return row({ state, countyFips, countyName: cleanText(f.name(fields)), ratingArea });
    };
  },
};

export const ratingAreaZip3Format: CsvFormat<RatingAreaZip3Record> = {
  name: "rating-areas-by-zip3",
  delimiter: "auto",
  required: [["state"], ["zip3"], ["rating_area_id", "rating_area"]],
  create(header) {
    const c = (...n: string[]) => column(header, ...n);
    const f = { state: c("state"), zip3: c("zip3"), area: c("rating_area_id", "rating_area") };
    return (fields): Parsed<RatingAreaZip3Record> => {
      const state = f.state(fields).toUpperCase();
      if (!/^[A-Z]{2}$/.test(state)) return reject("malformed state");
      const zip3 = padCode(f.zip3(fields), 3);
      if (zip3 === null) return reject("malformed zip3");
      const ratingArea = parseRatingArea(f.area(fields));
      if (ratingArea === null) return reject("malformed rating_area_id");
      return row({ state, zip3, ratingArea });
    };
  },
};
