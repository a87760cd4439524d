import type * as PdfLib from "pdf-lib";
import type { PDFDict, PDFDocument, PDFObject, PDFRef } from "pdf-lib";

/**
 * Removing a PDF's active content in place (issue 30 item 7,
 * docs/decisions/373). What goes:
 * - keys that run or carry something: /JS and /JavaScript (scripts and the
 *   document-level script name tree), /AA (additional actions: on open,
 *   close, page view, field keystroke …), /EmbeddedFiles and /EF (attached
 *   files), /XFA (the form's XML program), /RichMediaContent, /NeedsRendering;
 * - an action that runs something, wherever it is attached (/OpenAction,
 *   /A of a link, bookmark or field, /Next of another action, never a bookmark's
 *   /Next, which is the next bookmark): JavaScript,
 *   Launch, ImportData, SubmitForm, GoToR and GoToE (another file), Rendition,
 *   Movie, Sound, RichMediaExecute, or one whose type cannot be told;
 * - every object pdf-lib could not parse (kept as raw bytes, it would be
 *   written out unchecked, and a lenient viewer may read an action in it);
 * - every object no longer reachable from the trailer (the scripts and files
 *   just unlinked, and any object nothing uses).
 * What stays: destinations (`/OpenAction [3 0 R /Fit]`), GoTo, URI and Named
 * actions (links, "next page"), form fields and their appearances, outlines.
 */

/** Keys removed wherever they appear. */
const ACTIVE_KEYS = ["JS", "JavaScript", "AA", "EmbeddedFiles", "EF", "XFA", "RichMediaContent", "NeedsRendering"];
/** Keys whose value is an action (or a chain of them). */
const ACTION_KEYS = ["OpenAction", "A", "Next"];
/** Action types that only move within the document, open a link or do a viewer command. */
const HARMLESS_ACTIONS = new Set(["GoTo", "URI", "Named", "Thread", "SetOCGState", "Hide", "ResetForm", "Trans"]);

/** Remove active content from `doc` (see above); returns what was removed, for the log. */
export function disarm(doc: PDFDocument, pdf: typeof PdfLib): string[] {
  const { PDFArray, PDFDict, PDFInvalidObject, PDFName, PDFRawStream, PDFRef, PDFStream } = pdf;
  const context = doc.context;
  const removed: string[] = [];

  // An object pdf-lib could not parse is kept as its raw bytes and written out as they were. Nothing
  // here can look inside it, and a viewer's more lenient parser may read an action in it ("<< /S
  // /JavaScript /JS (...) /X [ >>" behind an /OpenAction): only what was read and checked is kept.
  let unreadable = 0;
  for (const [ref, object] of context.enumerateIndirectObjects())
    if (object instanceof PDFInvalidObject) {
      context.delete(ref);
      unreadable++;
    }
  if (unreadable > 0) removed.push(`${unreadable} unreadable objects`);
  const resolve = (value: PDFObject | undefined): PDFObject | undefined =>
    value instanceof PDFRef ? context.lookup(value) : value;
  const dictOf = (object: PDFObject | undefined): PDFDict | undefined =>
    object instanceof PDFDict
      ? object
      : object instanceof PDFRawStream || object instanceof PDFStream
        ? object.dict
        : undefined;

  /** Why an action (or an array of chained actions) must go, or undefined when it may stay. */
  const dangerousAction = (value: PDFObject | undefined, key: string): string | undefined => {
    const target = resolve(value);
    if (target instanceof PDFArray) {
      // /OpenAction [page /Fit] is a destination; /Next [a1 a2] a list of actions.
      if (key !== "Next") return undefined;
      for (let i = 0; i < target.size(); i++) {
        const why = dangerousAction(target.get(i), key);
        if (why) return why;
      }
      return undefined;
    }
    const action = dictOf(target);
    if (!action) return undefined;
    const type = resolve(action.get(PDFName.of("S")));
    const name = type instanceof PDFName ? type.decodeText() : undefined;
    if (name && HARMLESS_ACTIONS.has(name)) return undefined;
    return name ? `/${key} /${name}` : `/${key} (an action of no known type)`;
  };

  // Every indirect object and the direct objects inside it.
  const stack: PDFObject[] = context.enumerateIndirectObjects().map(([, object]) => object);
  let visited = 0;
  while (stack.length > 0 && visited++ < 2_000_000) {
    const object = stack.pop()!;
    const dict = dictOf(object);
    if (dict) {
      for (const key of ACTIVE_KEYS) {
        if (dict.has(PDFName.of(key))) {
          dict.delete(PDFName.of(key));
          removed.push(`/${key}`);
        }
      }
      // /Next chains actions only inside an action (which has /S); in a bookmark (outline item) it
      // is the next bookmark, and removing it dropped every bookmark after the first (decision 502).
      const isAction = dict.has(PDFName.of("S"));
      for (const key of ACTION_KEYS) {
        if (key === "Next" && !isAction) continue;
        const why = dangerousAction(dict.get(PDFName.of(key)), key);
        if (why) {
          dict.delete(PDFName.of(key));
          removed.push(why);
        }
      }
      for (const [, value] of dict.entries()) if (!(value instanceof PDFRef)) stack.push(value);
    } else if (object instanceof PDFArray) {
      for (let i = 0; i < object.size(); i++) {
        const item = object.get(i);
        if (!(item instanceof PDFRef)) stack.push(item);
      }
    }
  }
  const dropped = dropUnreachable(doc, pdf);
  if (dropped > 0) removed.push(`${dropped} unreferenced objects`);
  return removed;
}

/** Delete every indirect object the trailer (Root, Info) does not lead to; returns how many. */
function dropUnreachable(doc: PDFDocument, pdf: typeof PdfLib): number {
  const { PDFArray, PDFDict, PDFRawStream, PDFRef, PDFStream } = pdf;
  const context = doc.context;
  const reachable = new Set<PDFRef>();
  const stack: PDFObject[] = [];
  const { Root, Info } = context.trailerInfo;
  for (const start of [Root, Info]) if (start) stack.push(start as PDFObject);
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (object instanceof PDFRef) {
      if (reachable.has(object)) continue;
      reachable.add(object);
      const target = context.lookup(object);
      if (target) stack.push(target);
      continue;
    }
    const dict =
      object instanceof PDFDict
        ? object
        : object instanceof PDFRawStream || object instanceof PDFStream
          ? object.dict
          : undefined;
    if (dict) for (const [, value] of dict.entries()) stack.push(value);
    else if (object instanceof PDFArray) for (let i = 0; i < object.size(); i++) stack.push(object.get(i));
  }
  let dropped = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref)) {
      context.delete(ref);
      dropped++;
    }
  }
  return dropped;
}
