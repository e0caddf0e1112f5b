// The memory store through a real Session against the fake model: the index in the system prompt,
// the memory tool allowed for the memory folders only, and a memory written mid-session counting
// from the next session (the prefix stays cached).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionOptions, type RunSettings } from "../../../src/app/factory.ts";
import { memoryDirs } from "../../../src/memory/store.ts";
import { Session } from "../../../src/session/session.ts";
import { Store } from "../../../src/session/store.ts";
import { startFakeAnthropic, type FakeServer, type RecordedRequest } from "../../fake/server.ts";
import { sentResults } from "../../support/session-kit.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let fake: FakeServer;
let dir: TempDir;
let store: Store;
beforeAll(async () => {
  fake = await startFakeAnthropic({ strict: true });
  dir = tempDir("rein-memory-");
  store = Store.open(join(dir.path, "rein.db")).store;
});
afterAll(async () => {
  await fake.close();
  store.close();
  dir.remove();
});

function settings(project: string, data: string, warnings: string[] = []): RunSettings {
  return {
    cwd: project,
    projectRoot: project,
    model: "claude-test-1",
    apiKey: "sk-ant-test",
    baseURL: fake.url,
    maxTurns: 10,
    permissionMode: "default",
    rules: { user: [], project: [], flags: [] },
    outputDir: join(data, "output"),
    dataDir: data,
    userInstructions: join(data, "config", "AGENTS.md"),
    toolDirs: [],
    home: join(dir.path, "home"),
    reinDirs: [data],
    version: "0.0.0-test",
    sandbox: { mode: "off", network: false },
    env: {},
    envPassthrough: [],
    retry: { maxAttempts: 1 },
    askPolicy: () => ({ reply: "reject", explain: "asked (test: no person here)" }),
    warn: (message) => warnings.push(message),
  };
}

const systemOf = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.system);
const add = (input: Record<string, unknown>) => ({ reply: [{ type: "tool_use" as const, name: "memory", input: { action: "add", ...input } }] });
const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });

test("a memory the model adds is allowed without asking, stays out of this session's prompt, and is in the next one's", async () => {
  const project = join(dir.path, "proj-a");
  const data = join(dir.path, "data-a");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "AGENTS.md"), "Use pnpm.");
  fake.reset();
  const session = Session.create(project, sessionOptions(settings(project, data), store));
  fake.script(add({ name: "Test runner", description: "tests run with bun test", type: "project", text: "Run tests with `bun test`, never jest." }), say("noted"), say("again"));
  await session.prompt("remember how tests run");
  await session.prompt("and now?");
  const saved = sentResults(fake.requests[1])[0]!;
  expect(saved.content).toContain('Saved the memory "Test runner" (project)');
  expect(saved.is_error).toBeFalsy();
  expect(systemOf(fake.requests[0])).toContain("Use pnpm.");
  expect(systemOf(fake.requests[0])).not.toContain("Test runner");
  expect(systemOf(fake.requests[2])).toBe(systemOf(fake.requests[0]));

  const dirs = memoryDirs(data, project);
  expect(dirs.project.startsWith(data)).toBe(true);
  expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toBe("- [Test runner](test-runner.md) (project): tests run with bun test\n");
  expect(readFileSync(join(dirs.project, "test-runner.md"), "utf8")).toMatch(/^---\nname: "Test runner"\ndescription: "tests run with bun test"\ntype: project\nupdated: \d{4}-.*\n---\n\nRun tests with `bun test`, never jest.\n$/);

  fake.reset();
  const next = Session.create(project, sessionOptions(settings(project, data), store));
  fake.script(say("ok"));
  await next.prompt("hi");
  expect(systemOf(fake.requests[0])).toContain("- [Test runner](test-runner.md) (project): tests run with bun test");
  expect(systemOf(fake.requests[0])).toContain("Memory index for this project");
});

test("user memories reach every project; a secret is never written; a broken MEMORY.md front matter is warned about and still read", async () => {
  const data = join(dir.path, "data-b");
  const one = join(dir.path, "proj-b1");
  const two = join(dir.path, "proj-b2");
  mkdirSync(one, { recursive: true });
  mkdirSync(two, { recursive: true });
  fake.reset();
  const session = Session.create(one, sessionOptions(settings(one, data), store));
  fake.script(
    add({ name: "Tone", description: "short answers", type: "user", text: "The user wants short answers.", scope: "user" }),
    add({ name: "Deploy", description: "deploy key", type: "reference", text: "Deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789" }),
    add({ name: "DB", description: "db", type: "reference", text: "DATABASE_PASSWORD=hunter2hunter2" }),
    say("done"),
  );
  await session.prompt("remember");
  expect(sentResults(fake.requests[2])[0]).toMatchObject({ is_error: true, content: expect.stringContaining("looks like a secret (a private key or an access token)") });
  expect(sentResults(fake.requests[3])[0]).toMatchObject({ is_error: true, content: expect.stringContaining("looks like a secret (a value for DATABASE_PASSWORD)") });
  const dirs = memoryDirs(data, one);
  expect(JSON.stringify(readFileSync(join(dirs.user, "MEMORY.md"), "utf8"))).not.toContain("ghp_");

  const index = join(memoryDirs(data, two).project, "MEMORY.md");
  mkdirSync(join(index, ".."), { recursive: true });
  writeFileSync(index, "---\ntitle: my notes\n- [Layout](layout.md): src holds the code\n");
  fake.reset();
  const warnings: string[] = [];
  const other = Session.create(two, sessionOptions(settings(two, data, warnings), store));
  fake.script(say("ok"));
  await other.prompt("hi");
  const system = systemOf(fake.requests[0]);
  expect(system).toContain("Memory index for every project");
  expect(system).toContain("- [Tone](tone.md) (user): short answers");
  expect(system).toContain("- [Layout](layout.md): src holds the code");
  expect(warnings).toEqual([`${index}: the front matter is not closed (no second line ---); the whole file is read as the index`]);
});

test("a subfolder's instruction file arrives with the first read of a file below it, once, and never in the system prompt", async () => {
  const project = join(dir.path, "proj-c");
  const data = join(dir.path, "data-c");
  mkdirSync(join(project, "pkg", "deep"), { recursive: true });
  writeFileSync(join(project, "AGENTS.md"), "ROOT RULES");
  writeFileSync(join(project, "pkg", "AGENTS.md"), "PKG RULES: use tabs");
  writeFileSync(join(project, "pkg", "deep", "x.ts"), "export const x = 1;\n");
  writeFileSync(join(project, "pkg", "y.ts"), "export const y = 2;\n");
  fake.reset();
  const session = Session.create(project, sessionOptions(settings(project, data), store));
  const read = (path: string) => ({ reply: [{ type: "tool_use" as const, name: "read", input: { path } }] });
  fake.script(read("pkg/deep/x.ts"), read(join(project, "pkg", "y.ts")), say("done"));
  await session.prompt("look at pkg");
  const sent = (i: number) => JSON.stringify(fake.requests[i]!.body.messages.at(-1));
  expect(sent(1)).toContain("PKG RULES: use tabs");
  expect(sent(1)).toContain(`Instructions from the project (${join(project, "pkg", "AGENTS.md")})`);
  expect(sent(1)).not.toContain("ROOT RULES");
  expect(sent(2)).not.toContain("PKG RULES");
  expect(systemOf(fake.requests[0])).toContain("ROOT RULES");
  expect(systemOf(fake.requests[2])).not.toContain("PKG RULES");
});
