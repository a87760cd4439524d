import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../app/server/platform/openapi.server";

/**
 * Writes the document GET /api/openapi.json serves (the same function builds
 * both) to the path given, default .cache/openapi.json, for `npm run
 * lint:openapi` (spectral, .spectral.yaml) and other tools.
 */
const target = path.resolve(process.argv[2] ?? ".cache/openapi.json");
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`OpenAPI document written to ${path.relative(process.cwd(), target)}`);
