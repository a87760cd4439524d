import { costShareParts, type CostSharePart } from "../../domain/cost-share";
import { ENGLISH, type Words } from "./format";
import "./plan-words"; // the `plans` namespace's words (decision 440)

// Its own module: only the plan page and the comparison word cost shares, so the results page
// loads neither this nor the PUF's cost-share reader (issue 29 item 4, decision 407).

function partWords(part: CostSharePart, w: Words): string {
  const when = (qualifiers: readonly string[]) => qualifiers.map((q) => ` ${w.t(`plans.costShare.${q}`)}`).join("");
  switch (part.kind) {
    case "copay":
      return w.t("plans.costShare.copay", { amount: part.dollars }) + when(part.qualifiers);
    case "coinsurance":
      return w.t("plans.costShare.coinsurance", { percent: part.percent }) + when(part.qualifiers);
    case "fullCost":
      return w.t("plans.costShare.fullCost");
    case "noCharge":
      return w.t("plans.costShare.noCharge") + when(part.qualifiers);
    case "text":
      return part.text;
  }
}

/**
 * The PUF's cost-share text in plainer words, part by part (app/domain/cost-share.ts reads it):
 * "$25" → "$25 copay", "30.00% Coinsurance after deductible" → "30% coinsurance after deductible",
 * a bare "100.00%" → "you pay the full cost (100% coinsurance)"; in Spanish "copago de $25", …
 */
export function costShareWords(text: string | null | undefined, w: Words = ENGLISH): string {
  const parts = costShareParts(text);
  if (parts.length === 0) return w.t("plans.notStated");
  return parts.map((part) => partWords(part, w)).join(", ");
}
