// Replaced at build time by build.ts (define); under `bun run` it reads package.json.
declare const REIN_VERSION: string | undefined;
declare const REIN_BUILD: string | undefined;
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = typeof REIN_VERSION === "string" ? REIN_VERSION : pkg.version;
/** The version and a hash of the sources the binary was built from ("-dev" under `bun run`): what rein writes for itself to reread (plugin indexes) is keyed by it. */
export const BUILD: string = typeof REIN_BUILD === "string" ? REIN_BUILD : `${VERSION}-dev`;
