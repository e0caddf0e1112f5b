// The `http` handler: POSTs the payload as JSON. A 2xx answer's body is read as a command's stdout
// (empty: nothing decided); any other status or a failed connection is a non-blocking error. Header
// values expand `$VAR` / `${VAR}` only for the names in `allowedEnvVars`.
import type { HookHandler } from "../config/hooks-schema.ts";
import { OUTPUT_LIMIT, type RawRun } from "./command.ts";

type HttpHandler = Extract<HookHandler, { type: "http" }>;

export async function runHttp(handler: HttpHandler, payload: string, env: Readonly<Record<string, string | undefined>>, timeoutMs: number, signal: AbortSignal): Promise<RawRun> {
  const allowed = new Set(handler.allowedEnvVars ?? []);
  const headers = Object.fromEntries(
    Object.entries(handler.headers ?? {}).map(([name, value]) => [name, value.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (all, v: string) => (allowed.has(v) ? (env[v] ?? "") : all))]),
  );
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(handler.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: payload,
      signal: AbortSignal.any([signal, timeout]),
      redirect: "error",
    });
    const body = await response.text();
    const cut = body.length > OUTPUT_LIMIT;
    if (!response.ok) return { exitCode: 1, stdout: "", stderr: `HTTP ${response.status} from ${handler.url}`, timedOut: false, cut: false };
    return { exitCode: 0, stdout: cut ? body.slice(0, OUTPUT_LIMIT) : body, stderr: "", timedOut: false, cut };
  } catch (error) {
    if (timeout.aborted || signal.aborted) return { exitCode: null, stdout: "", stderr: "", timedOut: timeout.aborted, cut: false };
    return { exitCode: 1, stdout: "", stderr: "", timedOut: false, cut: false, error: `cannot reach ${handler.url}: ${(error as Error).message}` };
  }
}
