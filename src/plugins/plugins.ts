// Plugins in Claude Code's folder format, found in rein's plugins folder (`~/.config/rein/plugins/*/`,
// a copy or a symlink of the plugin's folder). A plugin feeds the other parts' sources: here its
// commands and skills, namespaced `plugin:name`. The manifest (`.claude-plugin/plugin.json`) is
// optional; unknown fields are ignored, a known field of the wrong type is that plugin's load error.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import * as v from "valibot";
import { pathKind } from "../skills/path-kind.ts";

export type Plugin = {
  name: string;
  root: string;
  version?: string;
  description?: string;
  /** folders of `*.md` commands */
  commands: string[];
  /** folders of `NAME/SKILL.md` skills */
  skills: string[];
  /** what the plugin has that rein does not load from plugins yet */
  unused: string[];
};
export type PluginLoad = { plugins: Plugin[]; problems: string[] };

const Paths = v.union([v.string(), v.array(v.string())]);
const Manifest = v.looseObject({
  name: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]*$/, "use kebab-case: a-z, 0-9, - and _"))),
  version: v.optional(v.string()),
  description: v.optional(v.string()),
  commands: v.optional(Paths),
  skills: v.optional(Paths),
  agents: v.optional(Paths),
  hooks: v.optional(v.union([v.string(), v.array(v.string()), v.record(v.string(), v.unknown())])),
  mcpServers: v.optional(v.union([v.string(), v.array(v.string()), v.record(v.string(), v.unknown())])),
});

/** Every plugin folder under `dir`, sorted by name; a broken one is a problem and the others still load. */
export function loadPlugins(dir: string): PluginLoad {
  const load: PluginLoad = { plugins: [], problems: [] };
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") load.problems.push(`${dir}: cannot read the plugins folder (${code ?? String(error)})`);
    return load;
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.startsWith(".")) continue;
    const plugin = readPlugin(join(dir, entry));
    if (!plugin) continue;
    if (typeof plugin === "string") load.problems.push(plugin);
    else if (seen.has(plugin.name)) load.problems.push(`${plugin.root}: a plugin named "${plugin.name}" is already loaded; rename one`);
    else {
      seen.add(plugin.name);
      load.plugins.push(plugin);
    }
  }
  return load;
}

/** One plugin folder, a problem naming it, or undefined for an entry that is no folder. */
function readPlugin(root: string): Plugin | string | undefined {
  if (!isDir(root)) return undefined;
  const manifestFile = join(root, ".claude-plugin", "plugin.json");
  let manifest: v.InferOutput<typeof Manifest> = {};
  if (existsSync(manifestFile)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(manifestFile, "utf8"));
    } catch (error) {
      return `${manifestFile}: not valid JSON (${(error as Error).message}); the plugin was not loaded`;
    }
    const parsed = v.safeParse(Manifest, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const key = v.getDotPath(issue) ?? "";
      return `${manifestFile}: ${key ? `"${key}": ` : ""}${issue.message}; the plugin was not loaded`;
    }
    manifest = parsed.output;
  }
  const inside = (paths: string | string[] | undefined, field: string): string[] | string => {
    const list = paths === undefined ? [] : Array.isArray(paths) ? paths : [paths];
    const out: string[] = [];
    for (const path of list) {
      const full = resolve(root, path);
      if (!path.startsWith("./") || relative(root, full).startsWith("..")) return `${manifestFile}: "${field}" names ${path}, which is not a ./ path inside the plugin; the plugin was not loaded`;
      out.push(full);
    }
    return out;
  };
  const commands = manifest.commands === undefined ? [join(root, "commands")] : inside(manifest.commands, "commands");
  const skills = inside(manifest.skills, "skills");
  if (typeof commands === "string") return commands;
  if (typeof skills === "string") return skills;
  const unused = [
    ...(manifest.agents !== undefined || isDir(join(root, "agents")) ? ["agents"] : []),
    ...(manifest.hooks !== undefined || existsSync(join(root, "hooks", "hooks.json")) ? ["hooks"] : []),
    ...(manifest.mcpServers !== undefined || existsSync(join(root, ".mcp.json")) ? ["MCP servers"] : []),
    ...(isDir(join(root, "bin")) ? ["bin/"] : []),
  ];
  return {
    name: manifest.name ?? basename(root),
    root,
    ...(manifest.version ? { version: manifest.version } : {}),
    ...(manifest.description ? { description: manifest.description } : {}),
    commands: commands.filter(isDir),
    skills: [join(root, "skills"), ...skills].filter(isDir),
    unused,
  };
}

function isDir(path: string): boolean {
  return pathKind(path) === "dir";
}
