// How a tool file that failed to load is named on stderr (`rein tools`, every front end's startup).
import type { LoadError } from "./factory.ts";

export function formatLoadError(error: LoadError): string {
  const where = error.line ? `${error.file}:${error.line}${error.column ? `:${error.column}` : ""}` : error.file;
  return `  ${where}: ${error.reason}`;
}
