import { cloneElement, Fragment, type ReactElement, type ReactNode } from "react";
import type { TFunction } from "i18next";

/**
 * A catalogue sentence with links or code inside it (issue 29: in place of react-i18next's Trans,
 * which brought i18next to the browser). The sentence names its parts as tags,
 * `"Go back to <home>the start</home>."`, and `components` gives an element for each name; the
 * element is drawn with the tag's text inside it. Tags are not nested; an unknown tag's text is
 * drawn as plain text. `values` are interpolated as `t(key, values)` does.
 */
const TAG_NAME = /^\w{1,32}$/;

export function Trans({
  t,
  i18nKey,
  components,
  values,
}: {
  t: TFunction;
  i18nKey: string;
  components: Record<string, ReactElement>;
  values?: Record<string, unknown>;
}): ReactNode {
  const text = String((t as unknown as (key: string, options?: object) => string)(i18nKey, values));
  const parts: ReactNode[] = [];
  // Neighbouring text is one text node (as the sentence reads), not several.
  const addText = (piece: string) => {
    if (typeof parts[parts.length - 1] === "string") parts[parts.length - 1] += piece;
    else parts.push(piece);
  };
  // One pass, no backtracking: find "<name>", then its "</name>".
  let last = 0;
  let from = 0;
  for (let open = text.indexOf("<", from); open !== -1; open = text.indexOf("<", from)) {
    const close = text.indexOf(">", open);
    if (close === -1) break;
    const name = text.slice(open + 1, close);
    const endTag = `</${name}>`;
    const end = TAG_NAME.test(name) ? text.indexOf(endTag, close + 1) : -1;
    if (end === -1) {
      from = open + 1;
      continue;
    }
    if (open > last) addText(text.slice(last, open));
    const inner = text.slice(close + 1, end);
    const element = components[name];
    if (element) parts.push(cloneElement(element, { key: parts.length }, inner));
    else addText(inner);
    last = from = end + endTag.length;
  }
  if (last < text.length) addText(text.slice(last));
  return <Fragment>{parts}</Fragment>;
}
