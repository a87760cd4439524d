/**
 * How the consumer pages write numbers and plan facts: dollars with cents
 * ($1,234.56), plain words for metal levels, usage levels and sorts. Pure
 * and small: it runs in the browser too.
 */

const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** $1,234.56 — every amount on the pages goes through here. */
export function money(amount: number): string {
  return usd.format(amount);
}

/** A money amount the data may not give. */
export function moneyOr(amount: number | null | undefined, missing = "Not stated"): string {
  return amount === null || amount === undefined ? missing : money(amount);
}

export const USAGE_LABELS: Record<string, string> = {
  low: "Low: one sick visit, a short prescription",
  medium: "Medium: a few visits and a monthly generic drug",
  high: "High: ongoing care and a hospital stay",
};

export const USAGE_SHORT: Record<string, string> = { low: "low", medium: "medium", high: "high" };

/** The sorts the results page offers; each is the plans API's `sort` (and the order it implies). */
export const SORT_LABELS: Array<{ value: string; label: string }> = [
  { value: "premium", label: "Monthly premium, lowest first" },
  { value: "yearly_cost", label: "Estimated yearly cost, lowest first" },
  { value: "deductible", label: "Deductible, lowest first" },
  { value: "moop", label: "Out-of-pocket maximum, lowest first" },
  { value: "quality_rating", label: "Quality rating, highest first" },
];

export function peopleWords(count: number): string {
  return count === 1 ? "1 person" : `${count} people`;
}

/** "NON-PREFERRED-BRAND" → "non-preferred brand". */
export function tierWords(tier: string | null | undefined): string | null {
  if (!tier) return null;
  return tier
    .toLowerCase()
    .replace(/_/g, " ")
    .replace(/-(?=(brand|generic|specialty|tier|drugs?)\b)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** What a cost-sharing reduction level means for a person: "lower deductibles and copays for you (73% level)". */
export function csrWords(csr: string | null | undefined): string | null {
  if (csr === "94" || csr === "87") return `much lower deductibles and copays for you (${csr}% level)`;
  if (csr === "73") return "lower deductibles and copays for you (73% level)";
  return null;
}

function percentWords(text: string): string {
  const n = Number(text);
  return `${Number.isInteger(n) ? n : Number(n.toFixed(2))}%`;
}

/**
 * The PUF's cost-share text in plainer words, part by part: "$25" → "$25
 * copay", "30.00% Coinsurance after deductible" → "30% coinsurance after
 * deductible", a bare "100.00%" → "you pay the full cost (100% coinsurance)".
 */
export function costShareWords(text: string | null | undefined): string {
  if (!text || !text.trim()) return "Not stated";
  return text
    .split(/,\s*/)
    .map((raw) => {
      const part = raw.trim();
      if (/^\$[\d,]+(\.\d+)?$/.test(part)) return `${part} copay`;
      const bare = /^(\d+(?:\.\d+)?)%$/.exec(part);
      if (bare)
        return Number(bare[1]) >= 100
          ? "You pay the full cost (100% coinsurance)"
          : `${percentWords(bare[1])} coinsurance`;
      const coins = /^(\d+(?:\.\d+)?)%\s+coinsurance(.*)$/i.exec(part);
      if (coins) return `${percentWords(coins[1])} coinsurance${coins[2].toLowerCase()}`;
      const copay = /^(\$[\d,]+(?:\.\d+)?)\s+copay(.*)$/i.exec(part);
      if (copay) return `${copay[1]} copay${copay[2].toLowerCase()}`;
      if (/^no charge/i.test(part)) return `No charge${part.slice("no charge".length).toLowerCase()}`;
      return part;
    })
    .join(", ");
}
