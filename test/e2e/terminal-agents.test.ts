// Agents and memory in the interactive terminal (tmux, the compiled binary, the fake model): Tab at
// an empty prompt runs the next primary agent, a subagent's calls show under its task, /tasks opens
// its transcript, /memory reload rereads the instructions, memory.auto keeps facts at exit.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-agents");
const { start } = suite;

const systemOf = (i: number) => JSON.stringify(suite.fake.requests[i]!.body.system);

describe.skipIf(!hasTmux)("agents in the terminal", () => {
  test("--agent with an initialPrompt: it is the first turn without a prompt, and goes with the prompt given at start", async () => {
    const agents = join(suite.dir.path, "initial-config", "agents");
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, "starter.md"), "---\ndescription: Starts on its own\ninitialPrompt: Look at the README first.\n---\nYou start.\n");
    suite.fake.script({ reply: [{ type: "text", text: "Looked." }] });
    const { pane } = await start({ name: "initial", args: "--agent starter" });
    expect(await pane.until("Looked.")).toContain("Look at the README first.");
    const sent = suite.fake.requests.at(-1)!.body.messages;
    expect(JSON.stringify(sent.at(-1))).toContain("Look at the README first.");
    pane.keys("C-d");
    await pane.until("EXIT=0");

    suite.fake.script({ reply: [{ type: "text", text: "Read it." }] });
    const given = await start({ name: "initial", args: "--agent starter 'then fix the typo'" });
    await given.pane.until("Read it.");
    expect(JSON.stringify(suite.fake.requests.at(-1)!.body.messages.at(-1))).toContain("Look at the README first.\\n\\nthen fix the typo");
    given.pane.keys("C-d");
    await given.pane.until("EXIT=0");
  }, 60_000);

  test("Tab at an empty prompt cycles build -> plan -> coordinator -> build; the prompt, the status line and the request follow", async () => {
    const { pane, data } = await start({ name: "tab" });
    expect(pane.screen()).toMatch(/^session s_\w+ · claude-sonnet-5-5 · agent build$/m);
    suite.fake.script({ reply: [{ type: "text", text: "Planned." }] }, { reply: [{ type: "text", text: "Built." }] });
    pane.keys("Tab");
    // the line is printed, then the prompt redrawn: two writes, awaited one after the other
    expect(await pane.until("agent: plan")).toContain("agent: plan · Plans without changing the project");
    await pane.until(/^plan › $/m);
    pane.keys("make a plan", "Enter");
    const planned = await pane.until(/plan · claude-sonnet-5-5 · context/);
    expect(planned).toContain("Planned.");
    expect(systemOf(0)).toContain("You are in plan mode.");

    // Tab after text is not an agent switch: the line stays as typed.
    pane.keys("abc", "Tab");
    await pane.until(/^plan › abc$/m);
    pane.keys("C-u", "Tab");
    await pane.until("agent: coordinator");
    await pane.until(/^coordinator › $/m);
    pane.keys("Tab");
    await pane.until("agent: build");
    pane.keys("now build it", "Enter");
    const built = await pane.until(/build · claude-sonnet-5-5 · context/);
    expect(built).toContain("Built.");
    expect(built).toMatch(/^› $/m);
    expect(systemOf(1)).not.toContain("You are in plan mode.");
    // The same session throughout: the second request carries the first exchange.
    expect(JSON.stringify(suite.fake.requests[1]!.body.messages)).toContain("make a plan");

    // Tab again: plan (Shift-Tab switches the permission mode, as in Claude Code).
    pane.keys("Tab");
    await pane.until(/^plan › $/m);
    pane.keys("C-d");
    const left = await pane.until("EXIT=0");
    // each run of the reopened session began with a session event naming its agent
    const id = /session (s_\w+) \(resume: rein -r/.exec(left)![1]!;
    const exported = Bun.spawnSync([BIN, "sessions", "export", id, "--format", "json"], { env: { ...process.env, REIN_DATA_DIR: data } });
    const events = (JSON.parse(exported.stdout.toString()) as { events: { type: string; agent?: string }[] }).events;
    expect(events.filter((e) => e.type === "session").map((e) => e.agent)).toEqual(["plan", "build"]);
  }, 30_000);

  test("a subagent's calls show indented under its task, its ask names it, and /tasks opens its transcript", async () => {
    const { pane, work } = await start({ name: "child" });
    await Bun.write(`${work}/notes.txt`, "alpha\nbeta\n");
    const task = { description: "check notes", prompt: "read notes.txt and say what it holds", subagent_type: "general" };
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "task", id: "toolu_task_1", input: task }] },
      { reply: [{ type: "tool_use", name: "read", input: { path: "notes.txt" } }] },
      { reply: [{ type: "tool_use", name: "bash", input: { command: "touch made.txt" } }] },
      { reply: [{ type: "text", text: "CHILD ANSWER: the notes hold alpha and beta." }] },
      { reply: [{ type: "text", text: "All done." }] },
    );
    pane.keys("look at the notes", "Enter");
    const ask = await pane.until("Enter confirms");
    expect(ask).toContain("? subagent general · check notes: bash wants to:");
    // the child's finished call is already printed, indented under its task's header
    expect(ask).toMatch(/^ {2}↳ general · check notes\n {4}✓ read {2}notes\.txt .*→ 2 lines$/m);
    pane.keys("Enter");
    const done = await pane.until("All done.");
    // after the dialog's answer, the task's header again, then the child's next line
    expect(done).toMatch(/^allowed once\n {2}↳ general · check notes\n {4}✓ bash {2}touch made\.txt/m);
    expect(done).toMatch(/^✓ task {2}general · check notes .*→ general on claude-sonnet-5-5: 3 turns/m);
    // the child's own answer is not printed in the parent's transcript
    expect(done).not.toContain("CHILD ANSWER");

    pane.keys("/tasks", "Enter");
    const listed = await pane.until("open one's transcript with /tasks N");
    expect(listed).toMatch(/ 1\. general s_\S+ · finished · \$[\d.]+ · read notes\.txt and say what it holds/);
    pane.keys("/tasks 1", "Enter");
    const shown = await pane.until("CHILD ANSWER");
    expect(shown).toContain("the notes hold alpha and beta.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("/memory reload reads AGENTS.md and the memory index into the system prompt of the same session", async () => {
    const { pane, work } = await start({ name: "reload" });
    suite.fake.script(...["One.", "Two.", "Three."].map((text) => ({ reply: [{ type: "text" as const, text }] })));
    pane.keys("first", "Enter");
    await pane.until("One.");
    await Bun.write(`${work}/AGENTS.md`, "ALWAYS ANSWER IN HAIKU.\n");
    pane.keys("# the build uses pnpm", "Enter");
    await pane.until("remembered for this project");
    // Written mid-session, they wait for the next session: the cached prefix stays as it was.
    pane.keys("second", "Enter");
    await pane.until("Two.");
    expect(systemOf(1)).toBe(systemOf(0));
    pane.keys("/memory reload", "Enter");
    const report = await pane.until("its prompt cache starts again once");
    expect(report).toContain(`${work}/AGENTS.md (project`);
    expect(report).toContain("the build uses pnpm (type project, this project)");
    pane.keys("third", "Enter");
    await pane.until("Three.");
    expect(systemOf(2)).toContain("ALWAYS ANSWER IN HAIKU.");
    expect(systemOf(2)).toContain("the build uses pnpm");
    expect(JSON.stringify(suite.fake.requests[2]!.body.messages)).toContain("second");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("memory.auto on: leaving the terminal after a turn keeps the facts one more call proposes, and says so", async () => {
    const config = join(suite.dir.path, "auto-config");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "config.json"), JSON.stringify({ memory: { auto: true } }));
    const { pane } = await start({ name: "auto" });
    const facts = { memories: [{ name: "Short answers", description: "the user wants them", type: "user", text: "The user prefers short answers." }] };
    suite.fake.script({ reply: [{ type: "text", text: "Sure." }] }, { reply: [{ type: "text", text: JSON.stringify(facts) }] });
    pane.keys("keep answers short from now on", "Enter");
    await pane.until("Sure.");
    pane.keys("C-d");
    const left = await pane.until("EXIT=0");
    expect(left).toContain("rein: memory.auto remembered 1 fact from this session: Short answers (rein memory list)");
    expect(JSON.stringify(suite.fake.requests[1]!.body.messages)).toContain("User: keep answers short from now on");
  }, 30_000);

  test("switching agent keeps one session for its hooks: one SessionStart, one SessionEnd", async () => {
    const log = join(suite.dir.path, "switch.log");
    const config = join(suite.dir.path, "switch-config");
    const note = (word: string) => [{ hooks: [{ type: "command", command: `printf '${word} ' >> ${log}` }] }];
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "config.json"), JSON.stringify({ hooks: { SessionStart: note("start"), SessionEnd: note("end") } }));
    const { pane } = await start({ name: "switch" });
    suite.fake.script({ reply: [{ type: "text", text: "First." }] }, { reply: [{ type: "text", text: "Second." }] });
    pane.keys("one", "Enter");
    await pane.until("First.");
    pane.keys("Tab");
    await pane.until("agent: plan");
    pane.keys("two", "Enter");
    await pane.until("Second.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
    expect(readFileSync(log, "utf8")).toBe("start end ");
  }, 30_000);

  test("started in --permission-mode plan, Tab to build leaves plan mode: an edit asks instead of being denied", async () => {
    const { pane } = await start({ name: "planmode", args: "--permission-mode plan" });
    expect(pane.screen()).toMatch(/· agent plan$/m);
    await pane.until(/^plan › $/m);
    pane.keys("Tab");
    await pane.until(/^coordinator › $/m);
    pane.keys("Tab");
    await pane.until("agent: build");
    suite.fake.script({ reply: [{ type: "tool_use", name: "write", input: { path: "out.txt", content: "x\n" } }] }, { reply: [{ type: "text", text: "Not written." }] });
    pane.keys("write out.txt", "Enter");
    await pane.until("Enter confirms");
    pane.keys("Escape");
    await pane.until("Not written.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("after switching agents a skill the model loads still grants its allowed-tools: the command runs without asking", async () => {
    const skill = join(suite.dir.path, "skill-config", "skills", "touchy");
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, "SKILL.md"), "---\nname: touchy\ndescription: Touches files\nallowed-tools: Bash(bun run noop *)\n---\nTouch what is asked.\n");
    const { pane, work } = await start({ name: "skill" });
    writeFileSync(join(work, "package.json"), JSON.stringify({ scripts: { noop: "true" } }));
    pane.keys("Tab");
    await pane.until("agent: plan");
    pane.keys("Tab");
    await pane.until(/^coordinator › $/m);
    pane.keys("Tab");
    await pane.until("agent: build");
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "skill", input: { name: "touchy" } }] },
      { reply: [{ type: "tool_use", name: "bash", input: { command: "bun run noop" } }] },
      { reply: [{ type: "text", text: "Ran it." }] },
    );
    pane.keys("run noop", "Enter");
    const done = await pane.until("Ran it.");
    expect(done).toMatch(/✓ bash {2}bun run noop/);
    expect(done).not.toContain("wants to:");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("/memory edit NAME lends the terminal to $EDITOR, saves the edit, and the prompt works again", async () => {
    const { pane, data } = await start({ name: "edit", env: { EDITOR: "sed -i s/pnpm/bun/" } });
    pane.keys("# the build uses pnpm", "Enter");
    await pane.until("remembered for this project");
    pane.keys("/memory edit the build uses pnpm", "Enter");
    const saved = await pane.until(/saved the build uses bun \(\S+the-build-uses-bun\.md\)/);
    expect(saved).not.toContain("the memory is as it was");
    const index = [...new Bun.Glob("memory/projects/*/MEMORY.md").scanSync(data)];
    expect(await Bun.file(join(data, index[0]!)).text()).toBe("- [the build uses bun](the-build-uses-bun.md) (project): the build uses bun\n");
    pane.keys("/memory edit nothing-like-it", "Enter");
    await pane.until('no memory named "nothing-like-it": /memory lists them');
    suite.fake.script({ reply: [{ type: "text", text: "Still here." }] });
    pane.keys("hello", "Enter");
    await pane.until("Still here.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("memory.auto at exit waits for no one: Ctrl-C while its call hangs skips it, the exit code stays 0", async () => {
    const config = join(suite.dir.path, "skip-config");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "config.json"), JSON.stringify({ memory: { auto: true } }));
    const { pane } = await start({ name: "skip" });
    suite.fake.script({ reply: [{ type: "text", text: "Hi." }] }, { hang: true });
    pane.keys("hello", "Enter");
    await pane.until("Hi.");
    pane.keys("C-d");
    await pane.until("(Ctrl-C skips it)");
    pane.keys("C-c");
    const left = await pane.until("EXIT=0");
    expect(left).toContain("rein: memory.auto kept nothing from this session: stopped");
  }, 30_000);
});
