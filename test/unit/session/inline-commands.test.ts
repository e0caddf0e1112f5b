// A command's dynamic context (Claude Code's `` !`cmd` `` and ```` ```! ```` blocks): which spans
// are commands, each checked before any runs, each output (from real bash) in its place; one
// refused command sends nothing, with a line saying which and why.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandInlineCommands, hasInlineCommands, type InlineIO } from "../../../src/session/inline-commands.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-inline-");
  writeFileSync(join(dir.path, "VERSION"), "1.2.3\n");
});
afterAll(() => dir.remove());

/** Runs each command in real bash in the temp folder; refuses those `refuse` names. */
function bashIO(refuse: (command: string) => string | undefined = () => undefined) {
  const checked: string[] = [];
  const ran: string[] = [];
  const io: InlineIO = {
    check: async (command) => (checked.push(command), refuse(command)),
    run: async (command) => {
      ran.push(command);
      const p = Bun.spawnSync(["bash", "-c", `{ ${command}\n} 2>&1`], { cwd: dir.path, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir.path } });
      return { output: p.stdout.toString(), isError: p.exitCode !== 0 };
    },
  };
  return { io, checked, ran };
}

test("hasInlineCommands: a !`cmd` at a line's start or after a space, or a ```! block; not a ! inside a word or plain code", () => {
  expect(hasInlineCommands("Version: !`cat VERSION`")).toBe(true);
  expect(hasInlineCommands("!`git status`\nthen")).toBe(true);
  expect(hasInlineCommands("```!\ngit log -1\n```")).toBe(true);
  expect(hasInlineCommands("say hi!`now`")).toBe(false);
  expect(hasInlineCommands("run `ls` and ```sh\nls\n```")).toBe(false);
  expect(hasInlineCommands("no commands")).toBe(false);
});

test("each inline command's output, trailing newlines trimmed, takes its place; the rest of the text is kept", async () => {
  const { io, ran } = bashIO();
  const text = "Release !`cat VERSION` from !`pwd`.\nDone.";
  expect(await expandInlineCommands(text, io, "release")).toEqual({ text: `Release 1.2.3 from ${dir.path}.\nDone.` });
  expect(ran).toEqual(["cat VERSION", "pwd"]);
});

test("a ```! block runs as one command; a !`cmd` inside the block is part of it, not run again", async () => {
  const { io, ran } = bashIO();
  const text = "Before\n```!\necho one; echo 'two !`x`'\n```\nAfter !`echo three`";
  expect(await expandInlineCommands(text, io, "c")).toEqual({ text: "Before\none\ntwo !`x`\nAfter three" });
  expect(ran).toEqual(["echo one; echo 'two !`x`'", "echo three"]);
});

test("commands run in the order they appear, and stderr is in the output", async () => {
  const { io, ran } = bashIO();
  const text = "```!\necho first\n```\n!`echo second >&2`";
  expect(await expandInlineCommands(text, io, "c")).toEqual({ text: "first\nsecond" });
  expect(ran).toEqual(["echo first", "echo second >&2"]);
});

test("a failing command's output still takes its place (the model reads what it said)", async () => {
  const { io } = bashIO();
  expect(await expandInlineCommands("Status: !`cat missing-file`", io, "c")).toEqual({ text: "Status: cat: missing-file: No such file or directory" });
});

test("every command is checked before any runs: one refused runs none, and the line names it, the reason and what to do", async () => {
  const { io, checked, ran } = bashIO((command) => (command.startsWith("curl") ? "a rule denies it" : undefined));
  const result = await expandInlineCommands("A !`echo safe` B !`curl https://x.example` C !`echo never`", io, "deploy");
  expect(result).toEqual({ error: "/deploy: its shell command `curl https://x.example` was not run (a rule denies it), so the prompt was not sent; allow it in the command's allowed-tools or with --allow" });
  expect(checked).toEqual(["echo safe", "curl https://x.example"]);
  expect(ran).toEqual([]);
});

test("an empty block is replaced by nothing and asks nothing", async () => {
  const { io, checked } = bashIO(() => "never asked");
  expect(await expandInlineCommands("x\n```!\n```\ny", io, "c")).toEqual({ text: "x\n\ny" });
  expect(checked).toEqual([]);
});

test("text without commands comes back as it was", async () => {
  const { io, ran } = bashIO();
  expect(await expandInlineCommands("plain `code` and wow!`x` stays", io, "c")).toEqual({ text: "plain `code` and wow!`x` stays" });
  expect(ran).toEqual([]);
});
