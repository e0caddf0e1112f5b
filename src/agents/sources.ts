// Where agent files are found, nearest first: the project's folders from the working directory up to
// the project root (rein's, Claude Code's, OpenCode's), then the user's. The nearer of two agents
// with one name wins, with a note; built-in agents come last. Enabled plugins' agent folders come
// after the user's, their agents named `plugin:agent`.
import { readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { missingFile, readOwnText, readProblem } from "../sdk/own-file.ts";
import { builtinAgents } from "./builtin.ts";
import type { AgentFile, AgentFormat, Parsed } from "./parse.ts";
import { agentFolders, type Folder } from "./folders.ts";
import { trusting } from "./trust.ts";
import type { AgentDefinition, AgentReport } from "./types.ts";

export type AgentSourceContext = {
  cwd: string;
  projectRoot: string;
  home: string;
  /** rein's user config folder (~/.config/rein) */
  configDir: string;
  /** the user's config home for OpenCode (~/.config) */
  xdgConfig?: string;
  /** an untrusted workspace's agents loosen nothing */
  trusted: boolean;
  /** enabled plugins' agent folders, each with its names' prefix (`plugin:`) and, from an installed copy's index, what reading it gave */
  plugins?: readonly { dir: string; prefix: string; read?: AgentFolderRead }[];
  /** Claude Code's `--agents JSON`: agent files made from it, nearer than any folder's */
  inline?: readonly { path: string; id: string; text: string; format?: AgentFormat; project?: boolean }[];
};

/** Every agent this workspace can run (files nearest first, then the built-ins), and what reading them found. */
export function loadAgents(ctx: AgentSourceContext): { agents: AgentDefinition[]; report: AgentReport } {
  const report: AgentReport = { warnings: [], notes: [] };
  const byName = new Map<string, AgentDefinition>();
  const add = (agent: AgentDefinition) => {
    const nearer = byName.get(agent.name);
    if (!nearer) return void byName.set(agent.name, agent);
    if (agent.source !== "built-in") report.notes.push(`agent "${agent.name}" of ${agent.source} is not used: ${nearer.source} defines one with the same name and is nearer`);
  };
  for (const file of ctx.inline ?? []) {
    const parsed = parseAgentFile({ format: "claude", ...file, project: file.project ?? false });
    if (parsed.warning) report.warnings.push(parsed.warning);
    report.notes.push(...parsed.notes);
    if (parsed.agent) add(ctx.trusted || !parsed.agent.project ? parsed.agent : trusting(parsed.agent, report.notes));
  }
  for (const folder of agentFolders(ctx)) {
    const read = folder.read ?? readAgentFolder(folder);
    report.warnings.push(...read.warnings);
    for (const parsed of read.parsed) {
      if (parsed.warning) report.warnings.push(parsed.warning);
      report.notes.push(...parsed.notes);
      if (parsed.agent) add(ctx.trusted || !parsed.agent.project ? parsed.agent : trusting(parsed.agent, report.notes));
    }
  }
  for (const agent of builtinAgents(ctx.projectRoot)) {
    const replaced = byName.get(agent.name);
    if (replaced?.project && !ctx.trusted) {
      report.notes.push(`agent "${agent.name}" of ${replaced.source} is not used: in an untrusted workspace the built-in ${agent.name} stays (run with --trust to use it)`);
      byName.set(agent.name, agent);
    }
    add(agent);
  }
  return { agents: [...byName.values()], report };
}

/** What one folder of agent files gives: each file read (in name order), and the files that could not be. */
export type AgentFolderRead = { parsed: Parsed[]; warnings: string[] };

/** A plugin's agents folder read as loadAgents reads it (Claude Code's format, names `prefix` + name): an installed copy's index keeps this. */
export function readPluginAgents(dir: string, prefix: string): AgentFolderRead {
  return readAgentFolder({ dir, format: "claude", project: false, recursive: true, prefix });
}

function readAgentFolder(folder: Folder): AgentFolderRead {
  const warnings: string[] = [];
  const parsed = markdownFiles(folder, warnings).map((file) => {
    const read = parseAgentFile({ ...file, format: folder.format, project: folder.project });
    if (read.agent && folder.prefix) read.agent = pluginAgent(read.agent, folder.prefix, read.notes);
    return read;
  });
  return { parsed, warnings };
}

/** A plugin's agent is namespaced, and may not choose its permission mode, hooks, MCP servers or initialPrompt (as in Claude Code 2.1.332). */
/** The agent-file parser, loaded at the first file read: an installed plugin's agents come parsed from its index. */
function parseAgentFile(file: AgentFile): Parsed {
  return (require("./parse.ts") as typeof import("./parse.ts")).parseAgentFile(file);
}

function pluginAgent(agent: AgentDefinition, prefix: string, notes: string[]): AgentDefinition {
  const { permissionMode, dontAsk: _dontAsk, hooks, mcpServers, initialPrompt, ...rest } = agent;
  const ignored = [...(permissionMode ? ["permissionMode"] : []), ...(hooks ? ["hooks"] : []), ...(mcpServers ? ["mcpServers"] : []), ...(initialPrompt ? ["initialPrompt"] : [])];
  if (ignored.length) notes.push(`agent file ${agent.source}: ${ignored.join(", ")} ${ignored.length === 1 ? "is" : "are"} ignored in a plugin's agent`);
  return { ...rest, name: `${prefix}${agent.name}` };
}

function markdownFiles(folder: Folder, warnings: string[]): { path: string; id: string; text: string }[] {
  let names: string[];
  try {
    if (!statSync(folder.dir).isDirectory()) return [];
    names = readdirSync(folder.dir, { recursive: folder.recursive }).map(String);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".md"))
    .sort()
    .flatMap((name) => {
      const path = join(folder.dir, name);
      try {
        return [{ path, id: name.slice(0, -3).split(sep).join("/"), text: readOwnText(path) }];
      } catch (error) {
        // A folder named `x.md` is not an agent file; anything else that cannot be read is said.
        if (!missingFile(error) && !statSync(path, { throwIfNoEntry: false })?.isDirectory()) warnings.push(`agent file ${path} skipped: ${readProblem(error)}`);
        return [];
      }
    });
}
