import { CARE_GROUPS, type CareGroup } from "../domain/care-groups";
import type { BenefitRowView } from "./page-views";

/**
 * The benefit table's rows as plain text for the plan page's data: one line a
 * row, fields separated by tabs (name, covered "1" / "0" / "" for not stated,
 * in network, in network tier 2, out of network, notes; "" for none), then the kind of
 * care the row is grouped under when it has one (issue 28 item 4).
 *
 * Remix writes a page's data into the document as JSON inside JSON: every
 * quote of a row object's keys and values is escaped twice, and each value is
 * indexed on its own. Sixty rows as objects were a third of the page's data
 * and most of the time spent encoding it; as text they are one string with
 * nothing to escape (decision 133). Tabs and line breaks inside a field
 * become spaces (the table shows them as spaces anyway).
 */
export function benefitRowsText(rows: readonly BenefitRowView[]): string {
  return rows
    .map((r) =>
      [
        r.name,
        r.covered === null ? "" : r.covered ? "1" : "0",
        r.inNetwork,
        r.inNetworkTier2 ?? "",
        r.outOfNetwork,
        r.notes ?? "",
        ...(r.group ? [r.group] : []),
      ]
        .map(oneLine)
        .join("\t"),
    )
    .join("\n");
}

export function benefitRowsFromText(text: string): BenefitRowView[] {
  if (text === "") return [];
  return text.split("\n").map((line) => {
    const [name = "", covered = "", inNetwork = "", inNetworkTier2 = "", outOfNetwork = "", notes = "", group = ""] =
      line.split("\t");
    return {
      ...((CARE_GROUPS as readonly string[]).includes(group) ? { group: group as CareGroup } : {}),
      name,
      covered: covered === "" ? null : covered === "1",
      inNetwork,
      inNetworkTier2: inNetworkTier2 === "" ? null : inNetworkTier2,
      outOfNetwork,
      notes: notes === "" ? null : notes,
    };
  });
}

const oneLine = (field: string) => field.replace(/[\t\r\n]+/g, " ");
