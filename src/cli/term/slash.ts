// The terminal's slash commands. Each one prints what it did; custom commands and skills
// (src/skills/) go to the session as typed, which expands them.
import type { PermissionMode } from "../../config/load.ts";
import chalk from "chalk";
import { formatRule } from "../../app/rules.ts";
import type { Session } from "../../session/session.ts";
import type { Store } from "../../session/store.ts";
import { cachedPercent, costLine, sessionSpend } from "../cost-line.ts";
import { completeSlash, type SlashCommand } from "../../session/skills.ts";
import { sessionLine } from "../sessions-format.ts";
import { statusLine } from "../../session/mcp.ts";
import { visible } from "./editor.ts";
import { tasksSlash } from "./tasks-slash.ts";
import { undoSlash } from "./undo-slash.ts";

export const BUILTINS: readonly { name: string; args?: string; about: string; whileRunning?: boolean }[] = [
  { name: "help", about: "this list", whileRunning: true },
  { name: "model", args: "[PROVIDER/MODEL]", about: "show or change the model (openai/gpt-5.2, ollama/qwen3-coder; rein models lists them)" },
  { name: "clear", about: "start a new session (the old one stays in `rein sessions`)" },
  { name: "sessions", about: "recent sessions in this directory", whileRunning: true },
  { name: "resume", args: "ID", about: "continue another session" },
  { name: "compact", args: "[FOCUS]", about: "summarise the conversation now" },
  { name: "undo", args: "[code|conversation] [N]", about: "undo the last turn (or N): code and conversation, or only one" },
  { name: "redo", about: "reverse the last /undo" },
  { name: "cost", about: "tokens, cache hits and money spent in this session", whileRunning: true },
  { name: "permissions", args: "[revoke N]", about: "rules in force and this session's approvals", whileRunning: true },
  { name: "tools", about: "the tools the model has", whileRunning: true },
  { name: "agents", about: "the agents: primary ones to run as (--agent), subagents for the task tool", whileRunning: true },
  { name: "tasks", args: "[N]", about: "the subagents this session ran, running or finished; /tasks N prints one's transcript", whileRunning: true },
  { name: "mcp", about: "the MCP servers: state, tools, prompts, last error", whileRunning: true },
  { name: "lsp", about: "the language servers: state, languages, last error", whileRunning: true },
  { name: "memory", args: "[reload | edit NAME]", about: "the instruction files read and the memories kept (# NOTE saves one); reload reads them again now; edit opens one in $EDITOR", whileRunning: true },
  { name: "serve", about: "serve this session over HTTP", whileRunning: true },
  { name: "exit", about: "leave rein", whileRunning: true },
  { name: "quit", about: "the same as /exit", whileRunning: true },
];

export type SlashHost = {
  print(text: string): void;
  session(): Session;
  store(): Store;
  custom(): readonly SlashCommand[];
  /** the MCP servers' prompts known so far (`/mcp__SERVER__PROMPT`) */
  prompts?(): readonly { name: string; description: string; argumentHint?: string }[];
  tools(): Promise<{ name: string; source: string; description: string }[]>;
  /** what /agents lists: the workspace's agents, the one this session runs as marked */
  agents?(): { name: string; mode: string; description: string; source: string; current: boolean }[];
  /** the agent the session runs as, the primary agents Tab cycles through, and a switch to one (between turns) */
  agent?(): string;
  primaryAgents?(): string[];
  switchAgent?(name: string): void;
  /** the permission mode the session runs in, the modes Shift-Tab cycles through, and a switch to one (from the next call) */
  permissionMode?(): PermissionMode;
  permissionModes?(): PermissionMode[];
  switchMode?(mode: PermissionMode): void;
  /** reads the instruction files and the memory index again into the session's system prompt */
  reload?(): void;
  newSession(): void | Promise<void>;
  /** why the session cannot be resumed, or undefined once it is */
  resume(id: string): string | undefined | Promise<string | undefined>;
  compact(focus: string | undefined): Promise<void>;
  serve(): Promise<void>;
  exit(): void;
  /** what /model without a name lists: each provider this configuration reaches, with its models */
  models?(): { provider: string; ready: boolean; models: string[] }[];
  /** what /memory shows */
  memory?(): string;
  /** /memory edit NAME: opens the memory in the user's editor; what came of it */
  editMemory?(name: string): Promise<string>;
  /** the terminal's width in columns */
  width?(): number;
  /** sends a prompt to the model, as typed */
  prompt(text: string): Promise<void>;
};

/** Whether a typed line is a command that may run while a turn is running. */
export function runsWhileBusy(line: string): boolean {
  const name = commandName(line);
  return BUILTINS.some((b) => b.name === name && b.whileRunning);
}

export function commandName(line: string): string | undefined {
  const match = /^\/([\w:-]+)/.exec(line.trim());
  return match?.[1];
}

/** Runs a slash command line. False when the line is not a known command (it is then a prompt). */
export async function runSlash(line: string, host: SlashHost): Promise<boolean> {
  const trimmed = line.trim();
  const name = commandName(trimmed);
  if (!name) return false;
  const rest = trimmed.slice(name.length + 1).trim();
  const say = (text: string) => host.print(chalk.dim(text));
  switch (name) {
    case "help":
      host.print(helpText(host.custom(), host.prompts?.() ?? []));
      return true;
    case "mcp": {
      const servers = await host.session().mcpServers();
      say(servers.length ? visible(servers.map(statusLine).join("\n")) : "no MCP servers configured (see rein mcp add, or docs/mcp.md)");
      return true;
    }
    case "lsp": {
      const servers = host.session().lspServers();
      const line = (s: (typeof servers)[number]) => `${s.name}  ${s.state}${s.languages.length ? `  (${s.languages.join(", ")})` : ""}${s.detail ? `: ${s.detail}` : ""}`;
      say(servers.length ? visible(servers.map(line).join("\n")) : 'no language servers configured (the "lsp" config key, or a plugin\'s .lsp.json; see docs/lsp.md)');
      return true;
    }
    case "model":
      return model(host, rest), true;
    case "clear":
      await host.newSession();
      return true;
    case "sessions":
      return listSessions(host), true;
    case "resume": {
      if (!rest) return listSessions(host), true;
      const problem = await host.resume(rest);
      if (problem) host.print(chalk.red(problem));
      return true;
    }
    case "compact":
      await host.compact(rest || undefined);
      return true;
    case "undo":
    case "redo":
      host.print(await undoSlash(host.store(), host.session(), name === "redo", rest));
      return true;
    case "cost": {
      const spend = sessionSpend(host.store().spendEvents(host.session().id));
      const percent = cachedPercent(spend.usage);
      const share = percent === undefined ? "" : ` · ${percent}% of input from cache`;
      say(`session ${host.session().id}, ${spend.runs} run${spend.runs === 1 ? "" : "s"}: ${costLine(spend)}${share}`);
      return true;
    }
    case "permissions":
      return permissions(host, rest), true;
    case "tools": {
      const tools = await host.tools();
      const width = Math.max(...tools.map((t) => t.name.length)) + 2;
      say(tools.map((t) => visible(`${t.name.padEnd(width)}${t.source.padEnd(9)}${t.description.split("\n")[0]!.slice(0, 60)}`)).join("\n"));
      return true;
    }
    case "agents": {
      const agents = host.agents?.() ?? [];
      const width = Math.max(0, ...agents.map((a) => a.name.length)) + 2;
      const line = (a: (typeof agents)[number]) => `${a.current ? "* " : "  "}${a.name.padEnd(width)}${a.mode.padEnd(10)}${a.description.split("\n")[0]!.slice(0, 60)}  ${a.source}`;
      say(agents.length ? visible(agents.map(line).join("\n")) : "no agents");
      return true;
    }
    case "tasks":
      host.print(tasksSlash(host.store(), host.session().id, rest, host.width?.() ?? 80, chalk.level > 0, host.session().team));
      return true;
    case "memory":
      if (rest === "reload") return reloadMemory(host), true;
      if (/^edit\s+\S/.test(rest)) return await editMemorySlash(host, rest.slice(4).trim()), true;
      if (rest) return host.print(chalk.yellow("usage: /memory [reload | edit NAME]")), true;
      host.print(host.memory?.() ?? "no memory in this session");
      return true;
    case "serve":
      await host.serve();
      return true;
    case "exit":
    case "quit":
      host.exit();
      return true;
    default: {
      // An MCP server's prompt may not be known until its server connects: the session looks it up.
      const custom = host.custom().find((c) => c.name === name) ?? (name.startsWith("mcp__") ? name : undefined);
      if (!custom) {
        host.print(chalk.yellow(`unknown command /${name} (see /help)`));
        return true;
      }
      // The session expands it (arguments, model, allowed-tools), as for print mode and the server.
      await host.prompt(trimmed);
      return true;
    }
  }
}

/** The recent sessions of this directory, the current one starred. */
function listSessions(host: SlashHost): void {
  const rows = host.store().listSessions({ cwd: host.session().row.cwd, limit: 10 });
  // Titles are the first prompts, which may hold anything pasted: drawn, not interpreted.
  const lines = rows.map((row) => `${row.id === host.session().id ? "*" : " "} ${visible(sessionLine(row))}`);
  host.print(chalk.dim([...(lines.length ? lines : ["no sessions here yet"]), "continue one with /resume ID (a prefix is enough)"].join("\n")));
}

function helpText(custom: readonly SlashCommand[], prompts: NonNullable<ReturnType<NonNullable<SlashHost["prompts"]>>>): string {
  const rows = BUILTINS.map((b) => [`/${b.name}${b.args ? ` ${b.args}` : ""}`, b.about]);
  for (const c of custom) rows.push([`/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`, `${visible(c.description)} (${c.plugin ? `plugin ${c.plugin}` : c.source} ${c.kind})`]);
  for (const p of prompts) rows.push([`/${p.name}${p.argumentHint ? ` ${p.argumentHint}` : ""}`, `${visible(p.description)} (MCP prompt)`]);
  const width = Math.max(...rows.map(([left]) => left!.length)) + 2;
  const keys = [
    "Enter sends · Alt-Enter, Ctrl-J or a trailing \\ adds a line · ↑/↓ history",
    "/ lists the commands, narrowed as you type: ↑/↓ choose, Tab fills one in, Enter runs it, Esc closes the list",
    "Tab at an empty prompt runs the next primary agent (build, plan, ...) · Shift-Tab switches the permission mode",
    "Esc or Ctrl-C stops a turn; Ctrl-C clears the line, twice at an empty prompt exits · Ctrl-D exits",
  ];
  return [...rows.map(([left, right]) => `${chalk.cyan(left!.padEnd(width))}${chalk.dim(right!)}`), ...keys.map((k) => chalk.dim(k))].join("\n");
}

async function editMemorySlash(host: SlashHost, name: string): Promise<void> {
  if (!host.editMemory) return host.print(chalk.yellow("this terminal cannot open an editor"));
  // The editor has the terminal to itself: no turn may be drawing meanwhile.
  if (host.session().running) return host.print(chalk.yellow("a turn is running; /memory edit when it has finished"));
  host.print(await host.editMemory(name));
}

/** Reads the instruction files and the memory index into the system prompt now, not from the next session. */
function reloadMemory(host: SlashHost): void {
  if (!host.reload) return host.print(chalk.yellow("this terminal cannot reload its instructions"));
  if (host.session().running) return host.print(chalk.yellow("a turn is running; /memory reload when it has finished"));
  try {
    host.reload();
  } catch (error) {
    return host.print(chalk.red((error as Error).message));
  }
  host.print(host.memory?.() ?? "");
  // The system prompt is the start of the cached prefix: changing it costs one uncached request.
  host.print(chalk.dim("reloaded into the system prompt from the next turn (its prompt cache starts again once)"));
}

function model(host: SlashHost, name: string): void {
  const session = host.session();
  if (!name) return host.print(chalk.dim(modelListText(session.model, host.models?.() ?? [])));
  try {
    session.setModel(name);
    host.print(chalk.dim(`model: ${session.model === name ? name : `${session.model} (${name})`} from the next turn`));
  } catch (error) {
    host.print(chalk.red((error as Error).message));
  }
}

/** The model in use, then each provider's models (one a line; a provider without a list takes any id), the unready ones marked. */
function modelListText(current: string, providers: { provider: string; ready: boolean; models: string[] }[]): string {
  const lines = [`model: ${current} (change it with /model NAME)`];
  for (const p of providers) {
    lines.push(`${p.provider}${p.ready ? "" : " (no key: not usable yet)"}:`);
    lines.push(...(p.models.length ? p.models.map((m) => `  ${m === current ? "* " : ""}${m}`) : [`  any model: ${p.provider}/MODEL-ID`]));
  }
  return lines.join("\n");
}

function permissions(host: SlashHost, rest: string): void {
  const session = host.session();
  const revoke = /^revoke\s+(\d+)$/.exec(rest);
  if (revoke) {
    const removed = session.revoke(Number(revoke[1]) - 1);
    host.print(removed ? chalk.dim(`revoked: ${formatRule(removed)}`) : chalk.red(`no approval number ${revoke[1]} (see /permissions)`));
    return;
  }
  if (rest) return host.print(chalk.yellow("usage: /permissions [revoke N]"));
  const color = { allow: chalk.green, ask: chalk.yellow, deny: chalk.red } as const;
  // The built-in defaults are many and the same for everyone: counted, not listed.
  const builtIn = session.rules().filter((r) => r.source === "built-in default");
  const rules = session
    .rules()
    .filter((r) => r.source !== "built-in default")
    .map((r) => `  ${color[r.action](r.action.padEnd(5))} ${formatRule(r)}${r.source ? chalk.dim(`  ${r.source}`) : ""}`);
  if (builtIn.length > 0) rules.unshift(chalk.dim(`  ${builtIn.length} built-in rules (read-only commands allowed; see rein permissions explain -- 'COMMAND')`));
  const approvals = session.approvals().map((r, i) => `  ${i + 1}. ${formatRule(r)}`);
  host.print(
    [
      chalk.bold("rules in force (the last match wins):"),
      ...rules,
      chalk.bold("approved in this session:"),
      ...(approvals.length ? approvals : [chalk.dim("  none")]),
      ...(approvals.length ? [chalk.dim("withdraw one with /permissions revoke N")] : []),
    ].join("\n"),
  );
}

/** Tab after a `/`: the one command it completes to, or the longest start they share and a hint listing them. */
export function completeCommand(text: string, host: Pick<SlashHost, "custom" | "prompts"> | undefined): { text?: string; hint?: string } | undefined {
  const names = [...BUILTINS.map((b) => b.name), ...(host?.custom().map((c) => c.name) ?? []), ...(host?.prompts?.().map((c) => c.name) ?? [])];
  const found = completeSlash(text, names);
  if (found.length === 1) return { text: `${found[0]} ` };
  if (found.length > 1) return { text: commonPrefix(found), hint: found.join("  ") };
  return undefined;
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? "";
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
