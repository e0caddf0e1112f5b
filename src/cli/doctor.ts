// rein doctor: checks what a run needs, and says what to do about each problem.
import { sandboxAvailable } from "../session/factory.ts";
import { Store } from "../session/store.ts";
import type { Context } from "./context.ts";
import { out } from "./output.ts";

export function doctor(ctx: Context): number {
  const checks: [string, boolean, string][] = [];
  const { config, paths } = ctx;
  checks.push([
    "provider key",
    Boolean(config.apiKey),
    config.apiKey ? `set; API at ${config.baseURL ?? "https://api.anthropic.com"}` : "missing: export ANTHROPIC_API_KEY=... or set apiKey in the user config",
  ]);
  try {
    const { store, warning } = Store.open(paths.db);
    store.close();
    checks.push(["database", !warning, warning ?? `${paths.db} opens (WAL)`]);
  } catch (error) {
    checks.push(["database", false, (error as Error).message]);
  }
  checks.push(["config", true, config.sources.length ? `read ${config.sources.join(", ")}` : "no config files (defaults)"]);
  for (const w of config.warnings) checks.push(["config", false, w]);
  const sandbox = sandboxAvailable();
  const wanted = config.sandbox === "on";
  checks.push([
    "sandbox",
    sandbox.ok || !wanted,
    sandbox.ok ? `bubblewrap ${sandbox.version} (sandbox ${config.sandbox})` : `unavailable: ${sandbox.reason}; ${sandbox.hint} (sandbox ${config.sandbox})`,
  ]);
  checks.push(["model", true, config.model]);
  for (const [name, ok, detail] of checks) out(`${ok ? "ok  " : "FAIL"} ${name.padEnd(13)} ${detail}\n`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}
