// One plugin folder in Claude Code's format: its manifest (optional) and its components, found by
// folder or named in the manifest. What is wrong with one component (a path leading out of the
// plugin, a hooks file that is not JSON) costs that component and a line; the rest still loads.
import { realpathSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { pathKind } from "../skills/path-kind.ts";
import { withEntry, type EntryComponents } from "./entry-manifest.ts";
import { manifestFile, readManifest, type Manifest } from "./manifest.ts";
import { safeName } from "./store.ts";
import { optionalJsonObject } from "../config/optional-json.ts";
import type { ComponentReads } from "./plugin-index.ts";
import type { PluginRuns } from "./sources.ts";

export type Plugin = {
  name: string;
  /** the id rein knows it by: `name@marketplace` for a marketplace's plugin, else its name */
  id: string;
  root: string;
  /** ${CLAUDE_PLUGIN_DATA}: kept across updates, in rein's data folder */
  dataDir: string;
  version?: string;
  description?: string;
  /** folders of `*.md` commands */
  commands: string[];
  /** folders of `NAME/SKILL.md` skills */
  skills: string[];
  /** folders that are one skill each (a `SKILL.md` inside), named after the folder: a manifest's or a marketplace entry's `skills: ["./skills/pdf"]` */
  skillDirs: string[];
  /** a `SKILL.md` at the root and no skills folder: the plugin is that one skill, named after the plugin */
  skill?: string;
  /** folders of `*.md` agents */
  agents: string[];
  /** hook configurations (event -> matcher groups), each with the file it came from */
  hooks: { file: string; hooks: Record<string, unknown> }[];
  /** MCP server entries by name, each set with the file it came from */
  mcpServers: { file: string; servers: Record<string, unknown> }[];
  /** language server entries by name (`.lsp.json`, the manifest's `lspServers`), each set with its file */
  lspServers: { file: string; servers: Record<string, unknown> }[];
  /** the `bin/` folder, put on the bash tool's PATH */
  bin?: string;
  /** what was refused or unreadable; the plugin loads without it */
  problems: string[];
  /** an installed copy's skills, commands and agents as read (from its index): the loaders use these instead of the files */
  read?: ComponentReads;
  /** what it runs with its variables filled, from the installed plugins' index (sources.ts computes it otherwise) */
  runs?: PluginRuns;
};

/** An installed plugin's id and name (its copy's folder is named after its version), and where plugins keep data. */
export type PluginIdentity = {
  id?: string;
  name?: string;
  dataRoot: string;
  /** the component lists and `strict` of the marketplace entry it was installed from */
  entry?: EntryComponents;
};

/** The plugin at `root`, or one line saying why it cannot load. */
export function readPlugin(root: string, identity: PluginIdentity): Plugin | string {
  const read = readManifest(root);
  if (typeof read === "string") return read;
  const { manifest, ownSkillsOnly } = withEntry(read, identity.entry);
  const name = manifest.name ?? identity.name ?? basename(root);
  const id = identity.id ?? name;
  const problems: string[] = [];
  const paths = (field: "commands" | "skills" | "agents" | "hooks" | "mcpServers" | "lspServers", value: string | string[] | undefined) =>
    (value === undefined ? [] : Array.isArray(value) ? value : [value]).flatMap((path) => {
      const full = inside(root, path);
      if (full) return [full];
      problems.push(`${manifestFile(root)}: "${field}" names ${path}, which is not a ./ path inside the plugin; that path was not loaded`);
      return [];
    });
  const dirs = (list: string[]) => list.filter((dir) => pathKind(dir) === "dir");
  const named = (field: "commands" | "skills" | "agents", value: string | string[] | undefined) =>
    paths(field, value).filter((dir) => {
      if (pathKind(dir) === "dir") return true;
      problems.push(`${field} path ${relative(root, dir) || "."} is not a folder in the plugin; nothing was loaded from it`);
      return false;
    });
  const commands = manifest.commands === undefined ? [join(root, "commands")] : named("commands", manifest.commands);
  const agents = manifest.agents === undefined ? [join(root, "agents")] : named("agents", manifest.agents);
  const bin = join(root, "bin");
  const listed = named("skills", manifest.skills);
  const skillDirs = listed.filter((dir) => pathKind(join(dir, "SKILL.md")) === "file");
  const skills = dirs([...(ownSkillsOnly ? [] : [join(root, "skills")]), ...listed.filter((dir) => !skillDirs.includes(dir))]);
  const single = skills.length === 0 && skillDirs.length === 0 && pathKind(join(root, "SKILL.md")) === "file";
  return {
    name,
    id,
    root,
    dataDir: join(identity.dataRoot, safeName(id)),
    ...(manifest.version ? { version: manifest.version } : {}),
    ...(manifest.description ? { description: manifest.description } : {}),
    commands: dirs(commands),
    skills,
    skillDirs,
    ...(single ? { skill: join(root, "SKILL.md") } : {}),
    agents: dirs(agents),
    hooks: configSets("hooks", join(root, "hooks", "hooks.json"), manifest, paths, problems, root).map(({ file, config }) => ({ file, hooks: config })),
    mcpServers: configSets("mcpServers", join(root, ".mcp.json"), manifest, paths, problems, root).map(({ file, config }) => ({ file, servers: config })),
    lspServers: configSets("lspServers", join(root, ".lsp.json"), manifest, paths, problems, root).map(({ file, config }) => ({ file, servers: config })),
    ...(pathKind(bin) === "dir" ? { bin } : {}),
    problems,
  };
}

type ConfigField = "hooks" | "mcpServers" | "lspServers";
type PathsOf = (field: ConfigField, value: string | string[] | undefined) => string[];

/**
 * `hooks/hooks.json` or `.mcp.json`, then the manifest's field (files, or the configuration itself).
 * A file may wrap its configuration in `key` (hooks.json has `hooks` beside a `description`).
 */
function configSets(field: ConfigField, defaultFile: string, manifest: Manifest, paths: PathsOf, problems: string[], root: string) {
  const value = manifest[field];
  const files = [defaultFile, ...(isInline(value) ? [] : paths(field, value))];
  const consequence = field === "hooks" ? "its hooks were not loaded" : field === "mcpServers" ? "its MCP servers were not loaded" : "its language servers were not loaded";
  const sets = [...new Set(files)].flatMap((file) => {
    const json = optionalJsonObject(file, problems, consequence);
    if (json === undefined) return [];
    return [{ file, config: isRecord(json[field]) ? json[field] : json }];
  });
  return isInline(value) ? [...sets, { file: manifestFile(root), config: value }] : sets;
}

/** The absolute path of a `./` path that stays inside the plugin (after symlinks), or undefined. */
function inside(root: string, path: string): string | undefined {
  if (!path.startsWith("./")) return undefined;
  const full = resolve(root, path);
  if (relative(root, full).startsWith("..")) return undefined;
  try {
    const real = relative(realpathSync(root), realpathSync(full));
    return real.startsWith("..") ? undefined : full;
  } catch {
    return full; // not there: nothing to read, and nothing outside either
  }
}

function isInline(value: Manifest["hooks"]): value is Record<string, unknown> {
  return isRecord(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
