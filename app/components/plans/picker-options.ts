import { isPrimaryCare } from "../../domain/yearly-cost/doctor-kind";
import type { Selection } from "../../lib/shopping-url";

/**
 * What the pickers show of a drug or a doctor (app/components/plans/picker.tsx): the options of the
 * search list without JavaScript and of the autocomplete with it, from the API's suggestions.
 */

export interface PickerOption extends Selection {
  detail: string;
  /** A doctor's `accepting` value as upstream gives it; said in the page's words where shown. */
  accepting?: string | null;
}

export interface SuggestionAnswer {
  unavailable: boolean;
  partial: boolean;
  options: PickerOption[];
}

export interface DrugSuggestionView {
  rxcui: string;
  name: string;
  strength: string;
  full_name: string;
}
export interface ProviderSuggestionView {
  npi: string;
  name: string;
  type: string;
  specialties: string[];
  accepting?: string | null;
  address?: { street: string; city: string; state: string; zip: string } | null;
}

/** Upstream's `accepting` values with words in the catalogue (picker.accepting.*); `unknown` says nothing. */
const ACCEPTING_KEYS: Record<string, string> = {
  accepting: "yes",
  "not accepting": "no",
  "accepting in some locations": "some",
};

/** "430 Prairie Wind Rd, Carrollton, TX": enough to tell two Dr. Smiths apart. */
export function providerPlace(address: ProviderSuggestionView["address"]): string {
  if (!address) return "";
  return [address.street, address.city, address.state].filter(Boolean).join(", ");
}

export function drugOption(d: DrugSuggestionView): PickerOption {
  return { code: d.rxcui, name: `${d.name} ${d.strength}`.replace(/\s+/g, " ").trim(), detail: d.full_name };
}

export function doctorOption(p: ProviderSuggestionView): PickerOption {
  const kind = p.type === "Individual" ? "" : p.type;
  return {
    code: p.npi,
    ...(isPrimaryCare(p.specialties) ? { primaryCare: true } : {}),
    name: p.name.replace(/\s+/g, " ").trim(),
    detail: [p.specialties.slice(0, 2).join(", "), kind, providerPlace(p.address)].filter(Boolean).join(" · "),
    accepting: p.accepting ?? null,
  };
}

export type Kind = "drug" | "doctor";

/** The id of a chosen drug's or doctor's chip (its remove button). */
export function chipId(kind: Kind, code: string): string {
  return `${kind}-chip-${code.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** An option's detail line: its specialty, address and city, then whether it takes new patients. */
export function detailLine(option: PickerOption, t: (key: string) => string): string {
  const key = ACCEPTING_KEYS[option.accepting ?? ""];
  return [option.detail, key ? t(`picker.accepting.${key}`) : ""].filter(Boolean).join(" · ");
}
