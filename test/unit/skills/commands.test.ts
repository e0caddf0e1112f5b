import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { commandDirs, completeSlash, expandCommand, loadCustomCommands, type CustomCommand } from "../../../src/skills/commands.ts";

const BUILTINS = ["help", "cost", "compact", "serve"];
let root: string;
let project: string;
let user: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "rein-commands-"));
  project = join(root, "project", ".rein", "commands");
  user = join(root, "config", "commands");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(dir: string, rel: string, content: string | Uint8Array): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const dirsOf = (project: string, user: string) => [
  { dir: user, source: "user" as const },
  { dir: project, source: "project" as const },
];
const command = (template: string): CustomCommand => ({ name: "t", description: "", source: "user", file: "/t.md", template });

describe("loadCustomCommands", () => {
  test("file names are command names, subfolders join with ':', sorted; descriptions from frontmatter or the first line", () => {
    const review = put(project, "review.md", "---\ndescription: Review the staged changes\n---\n\nReview $ARGUMENTS carefully.\n");
    put(project, "git/commit.md", "\n\n# Write a commit message\nfor the staged diff\n");
    put(user, "fix-bug.md", `Fix ${"this bug ".repeat(12)}`);
    const { commands, problems } = loadCustomCommands(dirsOf(project, user), BUILTINS);
    expect(problems).toEqual([]);
    expect(commands.map((c) => [c.name, c.source])).toEqual([
      ["fix-bug", "user"],
      ["git:commit", "project"],
      ["review", "project"],
    ]);
    expect(commands[2]).toEqual({ name: "review", description: "Review the staged changes", source: "project", file: review, template: "Review $ARGUMENTS carefully.\n" });
    expect(commands[1]!.description).toBe("Write a commit message");
    expect(commands[0]!.description).toHaveLength(60);
    expect(commands[0]!.description).toEndWith("…");
  });

  test("a quoted description, CRLF line endings and a BOM are handled", () => {
    put(user, "a.md", "\uFEFF---\r\ndescription: \"Say: hi\"\r\nmodel: x\r\n---\r\nHello\r\n");
    const [a] = loadCustomCommands([{ dir: user, source: "user" }], BUILTINS).commands;
    expect(a).toMatchObject({ description: "Say: hi", template: "Hello\n" });
  });

  test("project commands override user commands of the same name", () => {
    put(user, "review.md", "user version");
    put(project, "review.md", "project version");
    put(user, "only-user.md", "mine");
    const { commands, problems } = loadCustomCommands(dirsOf(project, user), BUILTINS);
    expect(problems).toEqual([]);
    expect(commands.map((c) => `${c.name}=${c.template}`)).toEqual(["only-user=mine", "review=project version"]);
  });

  test("built-in names are never overridden: such files are reported", () => {
    const file = put(project, "help.md", "my help");
    put(user, "cost.md", "my cost");
    const { commands, problems } = loadCustomCommands(dirsOf(project, user), ["/help", "cost"]);
    expect(commands).toEqual([]);
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith(file))).toContain("/help is a built-in command");
  });

  test("names as Claude Code takes them (capitals too); invalid names and non-UTF-8 files are reported by file and skipped; other files and dotfiles are ignored", () => {
    put(user, "generate-AGENTS-file.md", "x");
    const spaced = put(user, "my cmd.md", "x");
    const latin1 = put(user, "latin.md", new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    put(user, "notes.txt", "x");
    put(user, ".#draft.md", "x");
    put(user, "ok.md", "fine");
    const { commands, problems } = loadCustomCommands([{ dir: user, source: "user" }], BUILTINS);
    expect(commands.map((c) => c.name).sort()).toEqual(["generate-AGENTS-file", "ok"]);
    expect(problems.sort()).toEqual(
      [
        `${spaced}: "my cmd" is not a valid command name; use only letters, digits, "_", "-" and "." in file and folder names (no spaces).`,
        `${latin1}: not UTF-8 text; save it as UTF-8.`,
      ].sort(),
    );
  });

  test.skipIf(process.getuid?.() === 0)("an unreadable file is reported", () => {
    const file = put(user, "secret.md", "x");
    chmodSync(file, 0o000);
    const { commands, problems } = loadCustomCommands([{ dir: user, source: "user" }], BUILTINS);
    expect(commands).toEqual([]);
    expect(problems).toEqual([`${file}: cannot read it (EACCES).`]);
  });

  test("a broken symlink is reported as unreadable", () => {
    mkdirSync(user, { recursive: true });
    const file = join(user, "gone.md");
    symlinkSync(join(root, "nowhere.md"), file);
    const { commands, problems } = loadCustomCommands([{ dir: user, source: "user" }], BUILTINS);
    expect(commands).toEqual([]);
    expect(problems).toEqual([`${file}: cannot read it (ENOENT).`]);
  });

  test("missing folders are not a problem", () => {
    expect(loadCustomCommands(dirsOf(project, user), BUILTINS)).toEqual({ commands: [], problems: [] });
    expect(loadCustomCommands([], BUILTINS)).toEqual({ commands: [], problems: [] });
  });

  test("commandDirs: OpenCode's, Claude Code's, then rein's folders, the user's before the project's (the later wins)", () => {
    expect(commandDirs({ projectRoot: "/repo", home: "/home/u", configDir: "/cfg" }).map((d) => `${d.source} ${d.dir}`)).toEqual([
      "user /home/u/.config/opencode/command",
      "user /home/u/.config/opencode/commands",
      "user /home/u/.claude/commands",
      "user /cfg/commands",
      "project /repo/.opencode/command",
      "project /repo/.opencode/commands",
      "project /repo/.claude/commands",
      "project /repo/.rein/commands",
    ]);
  });

  test("front matter gives argument-hint, model and allowed-tools; a broken block is reported and the file skipped", () => {
    put(user, "ship.md", "---\ndescription: Ship it\nargument-hint: [branch]\nmodel: claude-haiku-4-5\nallowed-tools: Bash(git push:*), Read\n---\nShip $1\n");
    const broken = put(user, "bad.md", '---\ndescription: "unterminated\n---\nbody\n');
    const { commands, problems } = loadCustomCommands([{ dir: user, source: "user" }], BUILTINS);
    expect(commands.map((c) => [c.name, c.argumentHint, c.model, c.allowedTools])).toEqual([["ship", "[branch]", "claude-haiku-4-5", ["Bash(git push:*)", "Read"]]]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith(`${broken}: the front matter is not valid YAML`);
  });
});

describe("expandCommand", () => {
  test("$ARGUMENTS is everything after the command, $1 $2 the words", () => {
    expect(expandCommand(command("Review $ARGUMENTS now."), "  src/a.ts  carefully ")).toBe("Review src/a.ts  carefully now.");
    expect(expandCommand(command("Move $1 to $2 ($3)."), "a.ts  b.ts")).toBe("Move a.ts to b.ts ().");
    expect(expandCommand(command("All: $ARGUMENTS; first: $1"), "x y")).toBe("All: x y; first: x");
  });

  test("replacement text is taken literally, not as a pattern or a placeholder", () => {
    expect(expandCommand(command("Say $ARGUMENTS"), "$1 costs $& and $$")).toBe("Say $1 costs $& and $$");
  });

  test("without a placeholder, arguments follow after a blank line; no arguments leaves the template as is", () => {
    expect(expandCommand(command("Summarise the diff.\n"), "focus on tests")).toBe("Summarise the diff.\n\nfocus on tests");
    expect(expandCommand(command("Summarise the diff.\n"), "  ")).toBe("Summarise the diff.\n");
    expect(expandCommand(command("Review $ARGUMENTS"), "")).toBe("Review ");
  });
});

describe("completeSlash", () => {
  const names = ["compact", "cost", "/help", "git:commit", "review"];

  test("prefix matches of the command word, sorted", () => {
    expect(completeSlash("/co", names)).toEqual(["/compact", "/cost"]);
    expect(completeSlash("/g", names)).toEqual(["/git:commit"]);
    expect(completeSlash("/", names)).toEqual(["/compact", "/cost", "/git:commit", "/help", "/review"]);
    expect(completeSlash("/cost", names)).toEqual(["/cost"]);
    expect(completeSlash("/x", names)).toEqual([]);
  });

  test("nothing for a line that is not a command or already has arguments", () => {
    expect(completeSlash("co", names)).toEqual([]);
    expect(completeSlash("/cost ", names)).toEqual([]);
    expect(completeSlash("/review src", names)).toEqual([]);
  });
});
