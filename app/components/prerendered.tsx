import { createContext, useContext, type ReactNode } from "react";

/**
 * Markup a loader made ahead for this one document, by part name
 * (docs/decisions/132). entry.server provides the request's parts; in the
 * browser there are none.
 */
export const PrerenderedParts = createContext<Readonly<Record<string, string>> | null>(null);

/**
 * `children`, or, when the server has this part's markup made ahead, that
 * markup as it is. The markup must be what React renders for `children`
 * (renderToString of the same component and props): the browser renders
 * `children` from the loader data and hydrates them over it.
 */
export function Prerendered({ part, children }: { part: string; children: ReactNode }) {
  const html = useContext(PrerenderedParts)?.[part];
  return html === undefined ? <div>{children}</div> : <div dangerouslySetInnerHTML={{ __html: html }} />;
}
