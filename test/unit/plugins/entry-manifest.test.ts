// A marketplace entry's component lists with the plugin's own manifest, as Claude Code merges them.
import { expect, test } from "bun:test";
import { entryComponents, withEntry } from "../../../src/plugins/entry-manifest.ts";

test("strict: false: the entry is the definition; plugin.json's components are not read, and its skills replace skills/", () => {
  const entry = entryComponents({ name: "document-skills", source: "./", strict: false, skills: ["./skills/pdf"] });
  expect(entry).toEqual({ strict: false, skills: ["./skills/pdf"] });
  const merged = withEntry({ name: "x", version: "1.0.0", commands: "./cmds", skills: "./more" }, entry as never);
  expect(merged).toEqual({ manifest: { name: "x", version: "1.0.0", skills: ["./skills/pdf"] }, ownSkillsOnly: true });
});

test("strict true or absent: plugin.json wins and the entry's lists are added; inline servers merge under the manifest's", () => {
  const entry = entryComponents({ name: "p", source: "./p", commands: ["./extra"], mcpServers: { a: { command: "entry-a" }, b: { command: "b" } } }) as never;
  const merged = withEntry({ commands: "./commands", mcpServers: { a: { command: "own-a" } } }, entry);
  expect(merged).toEqual({ manifest: { commands: ["./commands", "./extra"], mcpServers: { a: { command: "own-a" }, b: { command: "b" } } }, ownSkillsOnly: false });
});

test("an entry field of the wrong shape is one phrase naming it", () => {
  expect(entryComponents({ name: "p", source: "./", skills: 3 })).toBe('"skills": expected a ./ path or a list of them');
  expect(entryComponents({ name: "p", source: "./", strict: "no" })).toBe('"strict": expected true or false, got "no"');
});
