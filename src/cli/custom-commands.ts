// Custom slash commands: Markdown prompt templates in `.rein/commands/` (project) and the user
// config folder's `commands/`. `git/commit.md` is `/git:commit`. Problems are data, one line each.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { reinPaths } from "../config/paths.ts";

export type CustomCommand = { name: string; description: string; source: "project" | "user"; file: string; template: string };
export type CommandLoad = { commands: CustomCommand[]; problems: string[] };

const MAX_DESCRIPTION = 60;
/** Folders nest this deep at most (a symlink loop stops here). */
const MAX_DEPTH = 4;
const SEGMENT = /^[a-z0-9_-]+$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The two folders commands are read from, for a project root and the environment. */
export function commandDirs(projectRoot: string, env: Record<string, string | undefined>): { project: string; user: string } {
  return { project: join(projectRoot, ".rein", "commands"), user: join(reinPaths(env).configDir, "commands") };
}

/** Reads both folders; project commands override user ones of the same name, built-in names are never overridden. */
export function loadCustomCommands(dirs: { project?: string; user?: string }, builtins: readonly string[]): CommandLoad {
  const problems: string[] = [];
  const reserved = new Set(builtins.map((name) => name.replace(/^\//, "")));
  const byName = new Map<string, CustomCommand>();
  for (const source of ["user", "project"] as const) {
    const dir = dirs[source];
    if (dir === undefined) continue;
    for (const found of markdownFiles(dir, "", 0, problems)) {
      const command = readCommand(found, source, problems);
      if (!command) continue;
      if (reserved.has(command.name)) {
        problems.push(`${command.file}: /${command.name} is a built-in command and cannot be replaced; rename the file.`);
        continue;
      }
      byName.set(command.name, command);
    }
  }
  const commands = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { commands, problems };
}

/** The prompt a command sends: `$ARGUMENTS` is all of `args`, `$1`, `$2`… its words; with no placeholder, arguments follow after a blank line. */
export function expandCommand(command: CustomCommand, args: string): string {
  const all = args.trim();
  const words = all === "" ? [] : all.split(/\s+/);
  // A template that places its arguments itself ($ARGUMENTS or $1…) gets nothing appended.
  if (!/\$ARGUMENTS\b|\$\d/.test(command.template)) return all === "" ? command.template : `${command.template.trimEnd()}\n\n${all}`;
  return command.template.replace(/\$ARGUMENTS\b|\$(\d+)/g, (_match, index: string | undefined) => (index === undefined ? all : (words[Number(index) - 1] ?? "")));
}

/** Tab completion for the command word: "/co" gives ["/compact", "/cost"]; nothing once the line has a space. */
export function completeSlash(line: string, names: readonly string[]): string[] {
  if (!line.startsWith("/") || /\s/.test(line)) return [];
  const candidates = new Set(names.map((name) => (name.startsWith("/") ? name : `/${name}`)).filter((name) => name.startsWith(line)));
  return [...candidates].sort();
}

type Found = { file: string; name: string };

function markdownFiles(dir: string, prefix: string, depth: number, problems: string[]): Found[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") problems.push(`${dir}: cannot read this commands folder (${code ?? String(error)}).`);
    return [];
  }
  const found: Found[] = [];
  for (const entry of entries) {
    // Dotfiles are editor and system leftovers (.#x.md, .DS_Store), not commands.
    if (entry.startsWith(".")) continue;
    const file = join(dir, entry);
    const kind = kindOf(file);
    if (kind === "dir" && depth < MAX_DEPTH) found.push(...markdownFiles(file, `${prefix}${entry}:`, depth + 1, problems));
    if (!entry.endsWith(".md")) continue;
    if (kind === "file") found.push({ file, name: `${prefix}${entry.slice(0, -3)}` });
    else if (typeof kind === "object") problems.push(`${file}: cannot read it (${kind.error}).`);
  }
  return found;
}

/** What a folder entry is, following symlinks; a broken link or a failed stat carries its error code. */
function kindOf(path: string): "file" | "dir" | "other" | { error: string } {
  try {
    const info = statSync(path);
    return info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

function readCommand({ file, name }: Found, source: CustomCommand["source"], problems: string[]): CustomCommand | undefined {
  if (!name.split(":").every((segment) => SEGMENT.test(segment))) {
    problems.push(`${file}: "${name}" is not a valid command name; use only a-z, 0-9, "_" and "-" in file and folder names.`);
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    problems.push(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
    return undefined;
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    problems.push(`${file}: not UTF-8 text; save it as UTF-8.`);
    return undefined;
  }
  const { description, body } = parse(text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n"));
  return { name, description: description ?? describe(body), source, file, template: body };
}

/** An optional `---` frontmatter block at the top; only `description:` is read from it. */
function parse(text: string): { description: string | undefined; body: string } {
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
  if (!match) return { description: undefined, body: text };
  const line = match[1]!.split("\n").find((l) => /^description\s*:/.test(l));
  const value = line?.replace(/^description\s*:\s*/, "").trim().replace(/^(["'])(.*)\1$/, "$2");
  return { description: value || undefined, body: text.slice(match[0].length).replace(/^\n+/, "") };
}

/** The first non-empty line, without a Markdown heading mark, cut to 60 characters. */
function describe(body: string): string {
  const first = body.split("\n").find((line) => line.trim() !== "") ?? "";
  const plain = first.trim().replace(/^#+\s*/, "");
  const chars = [...plain];
  return chars.length <= MAX_DESCRIPTION ? plain : `${chars.slice(0, MAX_DESCRIPTION - 1).join("").trimEnd()}…`;
}
