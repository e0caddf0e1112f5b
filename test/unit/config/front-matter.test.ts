// One front-matter reader: lenient as the Agent Skills standard asks, and the same for agents,
// skills, commands, memories and what plugins bring of them.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadAgents } from "../../../src/agents/sources.ts";
import { readFrontMatter, splitFrontMatter } from "../../../src/config/front-matter.ts";
import { listMemories } from "../../../src/memory/store.ts";
import { loadCustomCommands } from "../../../src/skills/commands.ts";
import { loadSkills } from "../../../src/skills/discover.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

describe("readFrontMatter", () => {
  test("strict YAML when it parses, with the body after the block", () => {
    expect(readFrontMatter("\uFEFF---\r\nname: a\r\ntags: [x, y]\r\n---\r\n\r\nbody\r\n")).toEqual({ data: { name: "a", tags: ["x", "y"] }, body: "body\n", present: true });
    expect(readFrontMatter("---\n---\nbody")).toEqual({ data: {}, body: "body", present: true });
    expect(readFrontMatter("# no block\n---\n")).toEqual({ data: {}, body: "# no block\n---\n", present: false });
  });

  test("plain `key: value` lines when strict YAML refuses them, saying why", () => {
    const read = readFrontMatter('---\ndescription: Use when: the user asks\nname: "q\\"uoted"\nitems:\n  - a: b\n---\nx');
    expect(read).toMatchObject({ data: { description: "Use when: the user asks", name: 'q"uoted', items: [{ a: "b" }] }, body: "x", present: true });
    expect("lenient" in read && read.lenient).toBeString();
  });

  test("what neither reading takes is a problem, as is a block never closed", () => {
    expect(readFrontMatter('---\ndescription: "open\n---\nx')).toEqual({ error: expect.stringMatching(/^the front matter is not valid YAML \(.+\); quote values that hold ": " or "#"$/) });
    expect(readFrontMatter("---\nkey: {a: b: c\n  nested: [\n---\nx")).toHaveProperty("error");
    expect(readFrontMatter("---\ndescription: x\n")).toEqual({ error: "the front matter is not closed (no second line ---)" });
  });

  test("the block is found the same way where only the body matters (a MEMORY.md index)", () => {
    expect(splitFrontMatter('---\nkey: "open\n----\n---\n- [a](a.md)\n')).toEqual({ block: 'key: "open\n----', body: "- [a](a.md)\n" });
    expect(splitFrontMatter("---\nx: 1\n")).toEqual({ unclosed: "the front matter is not closed (no second line ---)" });
    expect(splitFrontMatter("- [a](a.md)\n")).toEqual({ body: "- [a](a.md)\n" });
  });
});

describe("every reader of front matter", () => {
  let dir: TempDir;
  beforeEach(() => (dir = tempDir("rein-front-matter-")));
  afterEach(() => dir.remove());

  const put = (rel: string, text: string) => {
    const file = join(dir.path, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };

  const COLON = "description: Use when: the diff is large";
  const BROKEN = 'description: "never closed';

  function readAll() {
    const home = join(dir.path, "home");
    const root = join(dir.path, "repo");
    mkdirSync(root, { recursive: true });
    const plugin = join(dir.path, "plugin");
    const agents = loadAgents({ cwd: root, projectRoot: root, home, configDir: join(home, "rein"), trusted: true, plugins: [{ dir: join(plugin, "agents"), prefix: "p:" }] });
    const skills = loadSkills({ cwd: root, projectRoot: root, home, configDir: join(home, "rein"), trusted: true, extra: [{ dir: join(plugin, "skills"), prefix: "p:" }] });
    const commands = loadCustomCommands([{ dir: join(home, "rein", "commands"), source: "user" }, { dir: join(plugin, "commands"), source: "user", prefix: "p:" }], []);
    const memories = listMemories({ user: join(dir.path, "memory", "user"), project: join(dir.path, "memory", "project") });
    return {
      descriptions: [
        ...agents.agents.filter((a) => a.source !== "built-in").map((a) => `agent ${a.name}: ${a.description}`),
        ...skills.skills.map((s) => `skill ${s.name}: ${s.description}`),
        ...commands.commands.map((c) => `command ${c.name}: ${c.description}`),
        ...memories.memories.map((m) => `memory ${m.name}: ${m.description}`),
      ].sort(),
      problems: [...agents.report.warnings, ...skills.problems, ...commands.problems, ...memories.broken.map((b) => `${b.file}: ${b.problem}`)].map((p) => p.replaceAll(dir.path, "")).sort(),
    };
  }

  test("an unquoted colon in a description loads everywhere, a plugin's files included", () => {
    put("home/rein/agents/a.md", `---\nname: a\n${COLON}\n---\nprompt\n`);
    put("plugin/agents/pa.md", `---\nname: pa\n${COLON}\n---\nprompt\n`);
    put("home/.claude/skills/s/SKILL.md", `---\nname: s\n${COLON}\n---\nbody\n`);
    put("plugin/skills/ps/SKILL.md", `---\nname: ps\n${COLON}\n---\nbody\n`);
    put("home/rein/commands/c.md", `---\n${COLON}\n---\nbody\n`);
    put("plugin/commands/pc.md", `---\n${COLON}\n---\nbody\n`);
    put("memory/project/m.md", `---\nname: m\n${COLON}\ntype: project\nupdated: 2026-01-01\n---\ntext\n`);
    const { descriptions, problems } = readAll();
    expect(problems).toEqual([]);
    expect(descriptions).toEqual(
      ["agent a", "agent p:pa", "command c", "command p:pc", "memory m", "skill p:ps", "skill s"].map((who) => `${who}: Use when: the diff is large`),
    );
  });

  test("broken YAML skips the file with one line naming it, everywhere; nothing crashes", () => {
    put("home/rein/agents/a.md", `---\nname: a\n${BROKEN}\n---\nprompt\n`);
    put("home/.claude/skills/s/SKILL.md", `---\nname: s\n${BROKEN}\n---\nbody\n`);
    put("home/rein/commands/c.md", `---\n${BROKEN}\n---\nbody\n`);
    put("memory/project/m.md", `---\nname: m\n${BROKEN}\ntype: project\n---\ntext\n`);
    const { descriptions, problems } = readAll();
    expect(descriptions).toEqual([]);
    expect(problems).toEqual([
      expect.stringMatching(/^\/home\/\.claude\/skills\/s\/SKILL\.md: the front matter is not valid YAML \(.+\); quote values that hold ": " or "#"; the skill was not loaded$/),
      expect.stringMatching(/^\/home\/rein\/commands\/c\.md: the front matter is not valid YAML \(.+\)/),
      expect.stringMatching(/^\/memory\/project\/m\.md: the front matter is not valid YAML \(.+\)/),
      expect.stringMatching(/^agent file \/home\/rein\/agents\/a\.md skipped: the front matter is not valid YAML \(.+\)/),
    ]);
  });
});

describe("readFrontMatter, lenient as Claude Code reads it", () => {
  test("Claude Code's retry: a top-level value YAML refuses is quoted, the rest stays YAML (lists, maps)", () => {
    const read = readFrontMatter("---\ndescription: Use when: the user asks @someone\ntools: [Read, Grep]\nhooks:\n  Stop:\n    - hooks: []\n---\nx");
    expect(read).toMatchObject({ data: { description: "Use when: the user asks @someone", tools: ["Read", "Grep"], hooks: { Stop: [{ hooks: [] }] } }, lenient: expect.any(String) });
  });

  test("an <example> description runs on over its lines; a later field still starts; keys given keep Context: lines in the value", () => {
    const text = '---\nname: simplifier\ndescription: Use this agent after edits. Examples:\n\n<example>\nContext: a feature was added\nuser: "Add auth"\n</example>\nmodel: opus\ntools: ["Read", "Grep"]\n---\nprompt';
    const read = readFrontMatter(text, { keys: ["name", "description", "model", "tools"] });
    expect(read).toMatchObject({
      data: { name: "simplifier", description: 'Use this agent after edits. Examples:\n\n<example>\nContext: a feature was added\nuser: "Add auth"\n</example>', model: "opus", tools: ["Read", "Grep"] },
      body: "prompt",
      lenient: expect.stringContaining('line 5 ("<example>") is not a field'),
    });
    // without the keys, a `word:` line starts a field of its own
    expect(readFrontMatter(text)).toMatchObject({ data: { Context: "a feature was added", model: "opus" } });
  });

  test("the line reading keeps block scalars and indented lists when another line spoils strict YAML", () => {
    const read = readFrontMatter("---\nname: a\nnote: |\n  line one\n  line two\nfolded: >-\n  one\n  two\nitems:\n  - x\n  - 'y'\n<stray>\n---\nb");
    expect(read).toMatchObject({ data: { name: "a", note: "line one\nline two\n", folded: "one two", items: ["x", "y"] } });
  });
});
