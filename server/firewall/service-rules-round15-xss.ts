import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 15 (docs/decisions/531): markup no sentence has, read in free text too.
 * Free text (notes, names, addresses) is read only by readings prose cannot trip (decision 391);
 * svc-xss-005 and svc-xss-006 read tags in structured values only. Two of their shapes are never
 * prose, so svc-xss-008 reads them in free text as well:
 * - a tag with an event attribute of any name ("<x onxxx=1", "<b/onpointerrawupdate=…"): a note may
 *   say "<3" or "<urgent>", never an attribute named on… with "=" inside a tag. The tag must open
 *   a value, a word or a quote: "a<b onset=3 days" is a comparison;
 * - a tag that loads or runs content (iframe, frame, object, embed, applet, base, link, meta, portal,
 *   svg, math, style, script) with an attribute: "<link rel=stylesheet href=…>". "Use the <link> in
 *   the email" has no attribute.
 */
export function round15XssRules(rule: RuleFn): WafRule[] {
  return [
    rule(
      "svc-xss-008",
      "xss",
      "In free text too: a tag with an event attribute of any name, or a tag that loads or runs content with an attribute",
      String.raw`(?:^|[\s>'"(])<\s*[a-z][\w:-]*(?:[\s/]+[^<>]*?)?[\s/'"]on[a-z]{3,}\s*=|` +
        String.raw`(?:^|[\s>'"(])<\s*(?:iframe|frame|frameset|object|embed|applet|base|link|meta|portal|svg|math|style|script)[\s/]+[^<>]*?[\w:-]+\s*=`,
      { freeText: true },
    ),
  ];
}
