// Skills and commands through a real Session made by the factory, against the fake Anthropic server:
// the catalog in the system prompt (the same bytes every turn), the skill tool, `/name args` prompts,
// allowed-tools granted for the run only and never past a deny, a command naming an unknown model.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import { sessionOptions, type RunSettings } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import { Store } from "../../../src/session/store.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let fake: FakeServer;
let dir: TempDir;
let store: Store;
let project: string;
let home: string;

beforeAll(async () => {
  fake = await startFakeAnthropic({ strict: true });
});
afterAll(() => fake.close());
beforeEach(() => {
  dir = tempDir("rein-skill-session-");
  project = join(dir.path, "repo");
  home = join(dir.path, "home");
  mkdirSync(project, { recursive: true });
  store = Store.open(join(dir.path, "rein.db")).store;
  fake.reset();
  put(join(project, ".claude/skills/touch-files/SKILL.md"), "---\nname: touch-files\ndescription: Create empty marker files. Use when: the user wants markers\nallowed-tools: Bash(touch *) Edit\n---\nCreate the markers named in $ARGUMENTS with touch.\n");
  put(join(project, ".claude/skills/touch-files/reference/usage.md"), "more\n");
  put(join(home, ".agents/skills/hidden/SKILL.md"), "---\nname: hidden\ndescription: Only by hand\ndisable-model-invocation: true\n---\nHidden body for $1.\n");
  put(join(project, ".claude/commands/fix.md"), "---\ndescription: Fix an issue\nargument-hint: [issue] [area]\n---\nFix issue $1 in the $2 area. All: $ARGUMENTS\n");
  put(join(project, ".rein/commands/cheap.md"), "---\nmodel: no-such-provider/tiny\n---\nSay hi\n");
});
afterEach(() => {
  store.close();
  dir.remove();
});

function put(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function settings(overrides: { trusted?: boolean; rules?: Rule[] } = {}): RunSettings {
  return {
    cwd: project,
    projectRoot: project,
    model: "claude-sonnet-5-5",
    apiKey: "sk-ant-test",
    baseURL: fake.url,
    retry: { maxAttempts: 1 },
    maxTurns: 10,
    permissionMode: "default",
    rules: { user: overrides.rules ?? [], project: [], flags: [] },
    outputDir: join(dir.path, "output"),
    userInstructions: join(home, "AGENTS.md"),
    toolDirs: [],
    home,
    reinDirs: [join(home, ".config/rein")],
    version: "0.0.0-test",
    sandbox: { mode: "off", network: false },
    env: { PATH: process.env.PATH, HOME: home },
    envPassthrough: [],
    // print mode's --on-ask deny: nobody answers
    askPolicy: () => ({ reply: "reject", explain: "Not run: it needs a permission." }),
    skills: { configDir: join(home, ".config/rein"), trusted: overrides.trusted ?? true },
  };
}

const text = (t: string) => ({ type: "text" as const, text: t });
const systemOf = (i: number) => JSON.stringify(fake.requests[i]!.body.system);
const userText = (i: number) => JSON.stringify(fake.requests[i]!.body.messages[0].content);
const toolResults = (i: number) => JSON.stringify(fake.requests[i]!.body.messages.at(-1).content);

test("the catalog names the model's skills in the system prompt, byte for byte the same on the next turn; a hidden skill is left out", async () => {
  const session = Session.create(project, sessionOptions(settings(), store));
  fake.script({ reply: [{ type: "tool_use", id: "toolu_01Look", name: "skill", input: { name: "touch-files", args: "a b" } }] }, { reply: [text("done")] });
  expect((await session.prompt("make markers a and b")).status).toBe("success");
  const system = systemOf(0);
  expect(system).toContain("- touch-files: Create empty marker files. Use when: the user wants markers");
  expect(system).not.toContain("hidden");
  expect(systemOf(1)).toBe(system);
  expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("skill");
  // The skill tool gave the body with its arguments and the folder's other files.
  const result = toolResults(1);
  expect(result).toContain("Create the markers named in a b with touch.");
  expect(result).toContain("reference/usage.md");
});

test("a skill's allowed-tools hold for the run that loaded it, never past a deny, and end with it", async () => {
  const session = Session.create(project, sessionOptions(settings({ rules: [{ permission: "bash", pattern: "touch secret*", action: "deny" }] }), store));
  const bash = (id: string, command: string) => ({ type: "tool_use" as const, id, name: "bash", input: { command } });
  fake.script(
    { reply: [{ type: "tool_use", id: "toolu_01Load", name: "skill", input: { name: "touch-files" } }] },
    { reply: [bash("toolu_02Touch", "touch marker-one"), bash("toolu_03Secret", "touch secret-file")] },
    { reply: [text("made one")] },
    { reply: [bash("toolu_04Again", "touch marker-two")] },
    { reply: [text("refused")] },
  );
  expect((await session.prompt("markers please")).status).toBe("success");
  // touch writes a file: the grant covers its bash and its edit permission.
  expect(existsSync(join(project, "marker-one"))).toBe(true);
  expect(existsSync(join(project, "secret-file"))).toBe(false);
  expect(toolResults(2)).toContain("Permission denied");
  // The next run has no grant: the same kind of command asks, and nobody answers.
  expect((await session.prompt("one more")).status).toBe("success");
  expect(existsSync(join(project, "marker-two"))).toBe(false);
  expect(toolResults(4)).toContain("Not run: it needs a permission.");
});

test("a prompt starting with /command sends the command's expansion; a skill by hand too, even one hidden from the model", async () => {
  const session = Session.create(project, sessionOptions(settings(), store));
  fake.script({ reply: [text("fixed")] }, { reply: [text("ok")] });
  expect((await session.prompt("/fix 42 parser")).text).toBe("fixed");
  expect(userText(0)).toContain("Fix issue 42 in the parser area. All: 42 parser");
  expect((await session.prompt("/hidden thing")).text).toBe("ok");
  expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1).content)).toContain("Hidden body for thing.");
  // A path is no command; an unknown name is sent as it is typed.
  fake.script({ reply: [text("a path")] });
  await session.prompt("/usr/bin/env is missing");
  expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1).content)).toContain("/usr/bin/env is missing");
});

test("a command naming a model that cannot run ends the run with that error and sends nothing", async () => {
  const session = Session.create(project, sessionOptions(settings(), store));
  const result = await session.prompt("/cheap");
  expect(result.status).toBe("error");
  expect(result.error).toStartWith("/cheap asks for the model no-such-provider/tiny (its front matter), which cannot run:");
  expect(fake.requests).toHaveLength(0);
});

test("in a workspace that is not trusted the project's skills are neither in the catalog nor commands", async () => {
  const options = sessionOptions(settings({ trusted: false }), store);
  expect(options.system).not.toContain("touch-files");
  expect(options.skills!.loaded.commands.map((c) => `${c.name} ${c.kind}`)).toEqual(["cheap command", "fix command", "hidden skill"]);
  expect(await options.skills!.plan("/touch-files x")).toMatchObject({ type: "unknown", name: "touch-files" });
});

test("a command naming an agent hands its task to that agent through the task tool; an unknown agent is the run's error, listing the agents", async () => {
  put(join(project, ".rein/commands/survey.md"), "---\nagent: explore\n---\nFind where $1 is parsed.\n");
  put(join(project, ".rein/commands/ghost.md"), "---\nagent: nobody\n---\nBoo\n");
  const withAgents = { ...settings(), agents: { list: builtinAgents(project) } };
  const session = Session.create(project, sessionOptions(withAgents, store));
  const unknown = await session.prompt("/ghost");
  expect(unknown.status).toBe("error");
  expect(unknown.error).toBe("/ghost asks for the agent nobody (its front matter), which is not defined here: the agents a task can run here are explore, general (agent files: docs/agents.md)");
  expect(fake.requests).toHaveLength(0);

  fake.script({ reply: [text("handed over")] });
  expect((await session.prompt("/survey config")).text).toBe("handed over");
  expect(userText(0)).toContain('Run this with the explore agent: call the task tool with subagent_type \\"explore\\" and the task below as its whole prompt');
  expect(userText(0)).toContain("Find where config is parsed.");
  // The task tool is offered up front.
  expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("task");
});
