import { acaParameterFile } from "../../domain/parameters/parameter-file";

/**
 * What the server build checks once the server has answered its first request, not while it
 * loads (issue 29, docs/decisions/461): the ACA parameter file's validation (~20 ms of zod).
 * server.ts calls it through the build's entry module (entry.server.tsx re-exports it), so the
 * check warms the build's own copy of the file. It throws a ParameterFileError naming the bad
 * block for a bad file, and server.ts stops the process, as a bad file stopped the start before.
 * Every reader checks the file on first use too: a price is never worked out from an unchecked file.
 */
export function deferredStartupChecks(): void {
  acaParameterFile();
}
