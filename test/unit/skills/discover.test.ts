// Skill discovery over real folders: where skills are found, which wins, and every bad input as one line.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadSkills, skillRoots, type SkillPlaces } from "../../../src/skills/discover.ts";
import { readFrontMatter } from "../../../src/config/front-matter.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let places: SkillPlaces;

beforeEach(() => {
  dir = tempDir("rein-skills-");
  const root = join(dir.path, "repo");
  places = { cwd: join(root, "pkg", "app"), projectRoot: root, home: join(dir.path, "home"), configDir: join(dir.path, "home", ".config", "rein"), trusted: true };
  mkdirSync(places.cwd, { recursive: true });
});
afterEach(() => dir.remove());

function put(file: string, content: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}
const skill = (name: string, description: string, extra = "") => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\nDo the ${name} thing.\n`;

describe("skillRoots", () => {
  test("rein's, .agents, .claude and .opencode folders from the working directory up to the root, then the user's", () => {
    const roots = skillRoots(places).map((r) => `${r.scope} ${r.dir.slice(dir.path.length)}`);
    expect(roots).toEqual([
      "project /repo/pkg/app/.rein/skills",
      "project /repo/pkg/app/.agents/skills",
      "project /repo/pkg/app/.claude/skills",
      "project /repo/pkg/app/.opencode/skills",
      "project /repo/pkg/app/.opencode/skill",
      "project /repo/pkg/.rein/skills",
      "project /repo/pkg/.agents/skills",
      "project /repo/pkg/.claude/skills",
      "project /repo/pkg/.opencode/skills",
      "project /repo/pkg/.opencode/skill",
      "project /repo/.rein/skills",
      "project /repo/.agents/skills",
      "project /repo/.claude/skills",
      "project /repo/.opencode/skills",
      "project /repo/.opencode/skill",
      "user /home/.config/rein/skills",
      "user /home/.agents/skills",
      "user /home/.claude/skills",
      "user /home/.config/opencode/skills",
    ]);
  });
});

describe("loadSkills", () => {
  test("finds skills in every kind of folder, with Claude Code's fields; the nearer of two with one name wins, the other is reported", () => {
    put(join(places.projectRoot, ".claude/skills/deploy/SKILL.md"), skill("deploy", "Deploy from the root", "allowed-tools: Bash(npm run deploy:*) Read\nargument-hint: [env]\nuser-invocable: no\n"));
    const near = put(join(places.cwd, ".agents/skills/deploy/SKILL.md"), skill("deploy", "Deploy this app", "model: claude-haiku-4-5\n"));
    put(join(places.home, ".agents/skills/notes/SKILL.md"), skill("notes", "Take notes", "disable-model-invocation: true\n"));
    put(join(places.configDir, "skills/pdf/SKILL.md"), skill("pdf", "Work with PDF files", "allowed-tools:\n  - Read\n  - Bash(pdftotext *)\n"));
    const load = loadSkills(places);
    expect(load.problems).toEqual([]);
    expect(load.skills.map((s) => [s.name, s.scope, s.description])).toEqual([
      ["deploy", "project", "Deploy this app"],
      ["notes", "user", "Take notes"],
      ["pdf", "user", "Work with PDF files"],
    ]);
    expect(load.skills[0]).toMatchObject({ file: near, model: "claude-haiku-4-5", modelInvocable: true, userInvocable: true });
    expect(load.skills[1]).toMatchObject({ modelInvocable: false });
    expect(load.skills[2]!.allowedTools).toEqual(["Read", "Bash(pdftotext *)"]);
    expect(load.warnings).toEqual([`${join(places.projectRoot, ".claude/skills/deploy/SKILL.md")}: skill "deploy" is also in ${near}, which wins (it is nearer)`]);
  });

  test("a workspace that is not trusted loads only the user's skills and names the skipped folder", () => {
    put(join(places.projectRoot, ".claude/skills/evil/SKILL.md"), skill("evil", "Runs what the repository wants"));
    put(join(places.home, ".claude/skills/mine/SKILL.md"), skill("mine", "My own"));
    const load = loadSkills({ ...places, trusted: false });
    expect(load.skills.map((s) => s.name)).toEqual(["mine"]);
    expect(load.untrusted).toEqual([join(places.projectRoot, ".claude/skills")]);
  });

  test("the unquoted-colon description loads; a name unlike its folder, or too long, is a warning", () => {
    put(join(places.home, ".agents/skills/review/SKILL.md"), "---\nname: code-review\ndescription: Review code. Use when: the user asks for a review\n---\nbody\n");
    const long = "a".repeat(70);
    put(join(places.home, `.agents/skills/${long}/SKILL.md`), skill(long, "Long"));
    const load = loadSkills(places);
    expect(load.skills.map((s) => [s.name, s.description])).toEqual([
      [long, "Long"],
      ["review", "Review code. Use when: the user asks for a review"],
    ]);
    expect(load.warnings.join("\n")).toContain(`name "code-review" differs from its folder "review"`);
    expect(load.warnings.join("\n")).toContain(`"${long}" is not a valid skill name`);
  });

  test("broken YAML, no front matter, no description, 5 MB, a symlink loop: each skipped with one line, the good one still loads", () => {
    const base = join(places.home, ".claude/skills");
    put(join(base, "good/SKILL.md"), skill("good", "Works"));
    const broken = put(join(base, "broken/SKILL.md"), '---\nname: broken\ndescription: "never closed\n---\nbody\n');
    const bare = put(join(base, "bare/SKILL.md"), "# Just a body\n");
    const mute = put(join(base, "mute/SKILL.md"), "---\nname: mute\n---\nbody\n");
    const huge = put(join(base, "huge/SKILL.md"), skill("huge", "Huge") + "x".repeat(5 * 1024 * 1024));
    mkdirSync(join(base, "loop"));
    symlinkSync(join(base, "loop", "SKILL.md"), join(base, "loop", "SKILL.md"));
    symlinkSync(join(base, "cycle"), join(base, "cycle"));
    const load = loadSkills(places);
    expect(load.skills.map((s) => s.name)).toEqual(["good"]);
    const lines = load.problems.map((p) => p.replaceAll(dir.path, ""));
    // The folder's entries are checked first, then each SKILL.md is read.
    expect(lines).toEqual([
      "/home/.claude/skills/cycle: cannot read it (ELOOP); fix or remove the link",
      "/home/.claude/skills/loop/SKILL.md: cannot read it (ELOOP)",
      `${bare.slice(dir.path.length)}: no front matter; start the file with a "---" block holding name and description`,
      expect.stringMatching(new RegExp(`^${broken.slice(dir.path.length)}: the front matter is not valid YAML \\(.+\\); quote values that hold ": " or "#"; the skill was not loaded$`)),
      "/home/.claude/skills/huge/SKILL.md: the file is 5.0 MiB; files over 256 KiB are not loaded (move long material into files next to it)",
      `${mute.slice(dir.path.length)}: no description in the front matter; the skill was not loaded (add "description: what it does and when to use it")`,
    ]);
    expect(lines.every((line) => !line.includes("\n"))).toBe(true);
  });
});

describe("readFrontMatter", () => {
  test("strict YAML when it parses; the line reading only for plain `key: value` pairs", () => {
    expect(readFrontMatter("---\ndescription: >\n  folded\n  text\n---\nbody")).toEqual({ data: { description: "folded text\n" }, body: "body", present: true });
    expect(readFrontMatter("---\ndescription: a: b\nargument-hint: [pr] [priority]\n---\nx")).toMatchObject({ data: { description: "a: b", "argument-hint": "[pr] [priority]" } });
    expect(readFrontMatter("---\nkey: {a: b: c\n  nested: [\n---\nx")).toHaveProperty("error");
    expect(readFrontMatter("no block")).toEqual({ data: {}, body: "no block", present: false });
  });
});
