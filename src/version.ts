// Replaced at build time by build.ts (define); under `bun run` it reads package.json.
declare const REIN_VERSION: string | undefined;
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = typeof REIN_VERSION === "string" ? REIN_VERSION : pkg.version;
