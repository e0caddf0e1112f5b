// Claude Code's print-mode flags that shape a run beyond the config (the rule and settings flags
// go through loadConfig): --tools, --system-prompt(-file), --append-system-prompt(-file),
// --agents JSON, --mcp-config and --strict-mcp-config. Each bad value is one usage error line.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { reinToolName } from "../permission/tool-names.ts";
import type { Args } from "./args.ts";
import { UsageError } from "./args.ts";

/** --tools "Bash,Read": only these built-in tools are offered; "" none; "default" all. Undefined: no restriction. */
export function offeredOnly(args: Pick<Args, "tools">): string[] | undefined {
  if (args.tools === undefined || args.tools.trim() === "default") return undefined;
  return args.tools
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((name) => reinToolName(name));
}

/** The system prompt's replacement and what is appended to it. */
export function systemPromptFlags(args: Args, cwd: string): { replace?: string; append?: string } {
  const replace = args.systemPrompt ?? (args.systemPromptFile !== undefined ? readFlagFile("--system-prompt-file", args.systemPromptFile, cwd) : undefined);
  const appended = [args.appendSystemPrompt, args.appendSystemPromptFile !== undefined ? readFlagFile("--append-system-prompt-file", args.appendSystemPromptFile, cwd) : undefined].filter((t) => t !== undefined);
  return { ...(replace !== undefined ? { replace } : {}), ...(appended.length ? { append: appended.join("\n\n") } : {}) };
}

/** --agents '{"reviewer": {"description": "...", "prompt": "...", "tools": ["Read"], "model": "sonnet"}}' as agent files. */
export function inlineAgents(args: Pick<Args, "agents">): { path: string; id: string; text: string }[] | undefined {
  if (args.agents === undefined) return undefined;
  const json = parseJson("--agents", args.agents);
  return Object.entries(json).map(([name, value]) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`--agents: agent "${name}" must be an object like {"description": "...", "prompt": "..."}`);
    const { prompt, ...fields } = value as Record<string, unknown>;
    // JSON is YAML: each field goes into the front matter as it was given.
    const front = Object.entries({ name, ...fields }).map(([key, field]) => `${key}: ${JSON.stringify(field)}`);
    return { path: `--agents (${name})`, id: name, text: `---\n${front.join("\n")}\n---\n${typeof prompt === "string" ? prompt : ""}\n` };
  });
}

/** --mcp-config FILE|JSON ...: each a `{"mcpServers": {...}}` document; the servers by name, later ones winning. */
export function mcpConfigServers(args: Pick<Args, "mcpConfig">, cwd: string): Record<string, unknown> {
  const servers: Record<string, unknown> = {};
  for (const value of args.mcpConfig) {
    const inline = value.trim().startsWith("{");
    const json = parseJson("--mcp-config", inline ? value : readFlagFile("--mcp-config", value, cwd), inline ? undefined : value);
    // `{"mcpServers": null}` is a wrong wrapper, not a server named "mcpServers"
    const entries = "mcpServers" in json ? json.mcpServers : json;
    if (typeof entries !== "object" || entries === null || Array.isArray(entries)) throw new UsageError(`--mcp-config ${inline ? "JSON" : value}: expected {"mcpServers": {"NAME": {...}}}`);
    Object.assign(servers, entries);
  }
  return servers;
}

function readFlagFile(flag: string, path: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), "utf8");
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

function parseJson(flag: string, text: string, file?: string): Record<string, unknown> {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === "object" && json !== null && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`${flag}${file ? ` ${file}` : ""}: not valid JSON (${(error as Error).message})`);
  }
  throw new UsageError(`${flag}${file ? ` ${file}` : ""}: expected a JSON object`);
}
