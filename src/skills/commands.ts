// Custom slash commands: Markdown prompt templates in `.rein/commands/` (project) and the user
// config folder's `commands/`, and Claude Code's and OpenCode's command folders. `git/commit.md` is
// `/git:commit`. Front matter: description, argument-hint, model, allowed-tools. Problems are data.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readFrontMatter } from "../config/front-matter.ts";
import { toolRuleList } from "../permission/tool-rule.ts";
import { sortByName } from "./by-name.ts";
import { pathKind } from "./path-kind.ts";
import { expandTemplate } from "./expand.ts";
import { hint, text } from "./front-matter.ts";
import { readSmall } from "./skill.ts";

export type CommandSource = "project" | "user";
export type CustomCommand = {
  name: string;
  description: string;
  source: CommandSource;
  file: string;
  template: string;
  argumentHint?: string;
  model?: string;
  /** the plugin it came from (its name), for the listings */
  plugin?: string;
  /** the agent the command is for (front matter `agent`): handed to it through the task tool */
  agent?: string;
  allowedTools?: string[];
};
export type CommandLoad = { commands: CustomCommand[]; problems: string[] };
/** `read`: what reading the folder gave, from an installed plugin's index */
export type CommandDir = { dir: string; source: CommandSource; prefix?: string; read?: CommandDirRead };

const MAX_DESCRIPTION = 60;
/** Folders nest this deep at most (a symlink loop stops here). */
const MAX_DEPTH = 4;
/** What Claude Code offers as a command name: letters of either case, digits, `_`, `-` and `.` (`generate-AGENTS-file`). */
const SEGMENT = /^[A-Za-z0-9_][\w.-]*$/;

export { commandDirs } from "./places.ts";

/** Reads the folders in order; a later folder's command replaces an earlier one of the same name, built-in names are never replaced. */
export function loadCustomCommands(dirs: readonly CommandDir[], builtins: readonly string[]): CommandLoad {
  const problems: string[] = [];
  const reserved = new Set(builtins.map((name) => name.replace(/^\//, "")));
  const byName = new Map<string, CustomCommand>();
  for (const dir of dirs) {
    const read = dir.read ?? readCommandDir(dir);
    problems.push(...read.problems);
    for (const command of read.entries) {
      if ("problem" in command) {
        problems.push(command.problem);
        continue;
      }
      if (reserved.has(command.name)) {
        problems.push(`${command.file}: /${command.name} is a built-in command and cannot be replaced; rename the file.`);
        continue;
      }
      byName.set(command.name, command);
    }
  }
  const commands = sortByName([...byName.values()]);
  return { commands, problems };
}

/** What one commands folder gives: what listing it found wrong, then each command read or why it was skipped. */
export type CommandDirRead = { problems: string[]; entries: (CustomCommand | { problem: string })[] };

/** Reads one folder of commands as loadCustomCommands does: an installed plugin's index keeps this. */
export function readCommandDir({ dir, source, prefix }: CommandDir): CommandDirRead {
  const problems: string[] = [];
  const entries = markdownFiles(dir, prefix ?? "", 0, problems).map((found) => readCommand(found, source));
  return { problems, entries };
}

/** The prompt a command sends (see expandTemplate). */
export function expandCommand(command: Pick<CustomCommand, "template">, args: string): string {
  return expandTemplate(command.template, args);
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
    const kind = pathKind(file);
    if (kind === "dir" && depth < MAX_DEPTH) found.push(...markdownFiles(file, `${prefix}${entry}:`, depth + 1, problems));
    if (!entry.endsWith(".md")) continue;
    if (kind === "file") found.push({ file, name: `${prefix}${entry.slice(0, -3)}` });
    else if (kind === "other") problems.push(`${file}: skipped: it is not a regular file.`);
    else if (typeof kind === "object") problems.push(`${file}: cannot read it (${kind.error}).`);
  }
  return found;
}

function readCommand({ file, name }: Found, source: CustomCommand["source"]): CustomCommand | { problem: string } {
  if (!name.split(":").every((segment) => SEGMENT.test(segment))) {
    return { problem: `${file}: "${name}" is not a valid command name; use only letters, digits, "_", "-" and "." in file and folder names (no spaces).` };
  }
  const read = readSmall(file);
  if ("error" in read) return { problem: `${file}: ${read.error}.` };
  const parsed = readFrontMatter(read.text);
  if ("error" in parsed) return { problem: `${file}: ${parsed.error}.` };
  const { data, body } = parsed;
  const argumentHint = hint(data["argument-hint"]);
  const model = text(data.model);
  const agent = text(data.agent);
  const allowedTools = toolRuleList(data["allowed-tools"]) ?? [];
  return {
    name,
    description: text(data.description) ?? describe(body),
    source,
    file,
    template: body,
    ...(argumentHint ? { argumentHint } : {}),
    ...(model ? { model } : {}),
    ...(agent ? { agent } : {}),
    ...(allowedTools.length ? { allowedTools } : {}),
  };
}

/** The first non-empty line, without a Markdown heading mark, cut to 60 characters. */
function describe(body: string): string {
  const first = body.split("\n").find((line) => line.trim() !== "") ?? "";
  const plain = first.trim().replace(/^#+\s*/, "");
  const chars = [...plain];
  return chars.length <= MAX_DESCRIPTION ? plain : `${chars.slice(0, MAX_DESCRIPTION - 1).join("").trimEnd()}…`;
}
