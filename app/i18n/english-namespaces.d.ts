/** One namespace of en.json as its own module (vite.config.ts, englishNamespaces). */
declare module "virtual:english/*" {
  const words: Record<string, unknown>;
  export default words;
}
