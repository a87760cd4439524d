import { CATALOGUES } from "../../app/i18n/catalogues.server";

/**
 * Scans a page rendered in Spanish for the English catalogue's sentences (issue 21): one found
 * means a string was left in English, or a component still holds its own English text that the
 * catalogue also has.
 */

type Tree = { [key: string]: string | Tree };
function values(tree: Tree): string[] {
  return Object.values(tree).flatMap((v) => (typeof v === "string" ? [v] : values(v)));
}

/**
 * The English catalogue's sentences as a page would show them: markup and placeholders cut out.
 * The metal level names are left out: plan names in the data carry them ("Gulf Prairie Expanded Bronze").
 */
export const ENGLISH_SENTENCES = (() => {
  const spanish = new Set(values(CATALOGUES.es as Tree));
  const { metal: _names, ...plans } = CATALOGUES.en.plans;
  return [
    ...new Set(
      values({ ...CATALOGUES.en, plans } as unknown as Tree)
        .filter((english) => !spanish.has(english)) // names equal in both languages
        .flatMap((english) => english.split(/<\/?\w+>|\{\{\w+\}\}/))
        .map((piece) => piece.trim())
        .filter((piece) => piece.split(" ").length >= 2),
    ),
  ];
})();

/** The visible text of a page: scripts and tags dropped, React's text separators dropped, entities decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** The sentence as whole words: "on Medicare" is not found inside "con Medicare". */
const PATTERNS = new Map(
  ENGLISH_SENTENCES.map((sentence) => [
    sentence,
    new RegExp(`(?<![\\p{L}\\p{N}])${sentence.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "u"),
  ]),
);

export function englishFound(html: string): string[] {
  const text = visibleText(html);
  return ENGLISH_SENTENCES.filter((sentence) => text.includes(sentence) && PATTERNS.get(sentence)!.test(text));
}
