// The interactive terminal in a real terminal: tmux runs the compiled binary against the fake model;
// the assertions read the captured screen.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { BIN, terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal");
const { server, start } = suite;

type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };
const lastUserText = () => {
  const body = suite.fake.requests.at(-1)!.body as Body;
  return body.messages.at(-1)!.content.find((b) => b.type === "text")?.text ?? "";
};

describe.skipIf(!hasTmux)("the interactive terminal", () => {
  test("renders the answer as Markdown, one line per tool call with its result, and an edit as a diff", async () => {
    const { pane, work } = await start({ name: "render" });
    await Bun.write(join(work, "notes.txt"), "alpha\nbeta\ngamma\n");
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "read", input: { path: "notes.txt" } }] },
      { reply: [{ type: "tool_use", name: "edit", input: { path: "notes.txt", old_string: "beta", new_string: "BETA" } }] },
      { reply: [{ type: "text", text: "# Done\n\nI changed **one** line in `notes.txt`:\n\n- beta\n- became BETA\n\n```ts\nconst x = 1;\n```\n" }] },
    );
    pane.keys("edit the notes", "Enter");
    // The dialog shows the change before asking.
    const dialog = await pane.until("Enter confirms");
    expect(dialog).toMatch(/edit wants to:\n\s+notes\.txt\n\s+@@ -1,3 \+1,3 @@\n\s+alpha\n\s+-beta\n\s+\+BETA\n\s+gamma\n/);
    expect(dialog).toContain("❯ 1. Yes");
    pane.keys("Enter");
    const shown = await pane.until("became BETA");
    expect(shown).toMatch(/✓ read\s+notes\.txt\s+[\d.]+s\s+→ 3 lines/);
    expect(shown).toMatch(/✓ edit\s+notes\.txt/);
    expect(shown).toMatch(/^\s*-beta$/m);
    expect(shown).toMatch(/^\s*\+BETA$/m);
    // Markdown: the heading's # and the emphasis markers are gone, list items get bullets, code is indented.
    expect(shown).toMatch(/^Done$/m);
    expect(shown).toContain("I changed one line in notes.txt:");
    expect(shown).toMatch(/^• beta$/m);
    expect(shown).toMatch(/^ {2}const x = 1;$/m);
    expect(shown).not.toContain("```");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("colours only when allowed: FORCE_COLOR colours, NO_COLOR does not, TERM=dumb writes no escape sequence", async () => {
    const answer = { reply: [{ type: "text" as const, text: "Some `code` here." }] };
    suite.fake.script(answer, answer, answer);
    const coloured = await start({ name: "force", env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
    coloured.pane.keys("hi", "Enter");
    await coloured.pane.until("code here.");
    expect(coloured.pane.screen({ escapes: true })).toContain("\x1b[36mcode");
    coloured.pane.keys("C-d");

    const plain = await start({ name: "nocolor" });
    plain.pane.keys("hi", "Enter");
    await plain.pane.until("code here.");
    expect(plain.pane.screen({ escapes: true })).not.toMatch(/\x1b\[(3\d|1|2|4)m/);
    plain.pane.keys("C-d");

    // TERM=dumb: everything rein writes is captured raw by pipe-pane.
    const raw = join(suite.dir.path, "dumb.out");
    const dumb = await start({ name: "dumb", env: { TERM: "dumb", NO_COLOR: "" } });
    server.tmux("pipe-pane", "-t", dumb.pane.name, "-o", `cat >> ${raw}`);
    dumb.pane.keys("hi", "Enter");
    await dumb.pane.until("code here.");
    dumb.pane.keys("C-d");
    await dumb.pane.until("EXIT=0");
    const written = await Bun.file(raw).text();
    expect(written).toContain("code here.");
    expect(written.slice(0, written.indexOf("EXIT="))).not.toContain("\x1b");
  }, 40_000);

  test("multi-line entry, history with the arrow keys, and Tab completion of slash commands", async () => {
    const { pane } = await start({ name: "editing" });
    suite.fake.script({ reply: [{ type: "text", text: "Got two lines." }] }, { reply: [{ type: "text", text: "Got it again." }] });
    // Each key waits for the screen to show the one before it: keys read together (or within 10 ms)
    // are taken as a paste from a terminal without bracketed paste, whose Enters only break lines.
    pane.keys("first line\\");
    await pane.until("first line\\");
    pane.keys("Enter"); // a trailing backslash continues on a new line, and goes
    await pane.until(/first line\n/);
    pane.keys("second line");
    await pane.until("second line");
    pane.keys("C-j");
    pane.keys("third line");
    await pane.until("third line");
    pane.keys("Enter");
    await pane.until("Got two lines.");
    expect(lastUserText()).toBe("first line\nsecond line\nthird line");

    pane.keys("Up");
    await pane.until(/› first line\n\s+second line\n\s+third line/);
    pane.keys("Enter");
    await pane.until("Got it again.");
    expect(lastUserText()).toBe("first line\nsecond line\nthird line");

    // The / menu: both commands listed, ↓ chooses the second, Enter runs it.
    pane.keys("/co");
    await pane.until(/› \/compact \[FOCUS\]\s+summarise the conversation now\n\s+\/cost\s+tokens/);
    pane.keys("Down");
    await pane.until(/› \/cost\s+tokens/);
    pane.keys("Enter");
    await pane.until(/session s_\w+, 2 runs:/);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("the prompt history of earlier runs (read after the first paint) comes back with Up; this run's prompt is added to it", async () => {
    const file = join(suite.dir.path, "history-data", "prompt-history.jsonl");
    await Bun.write(file, `${JSON.stringify("from an earlier run")}\n`);
    const { pane } = await start({ name: "history" });
    suite.fake.script({ reply: [{ type: "text", text: "Again." }] });
    pane.keys("Up");
    await pane.until("› from an earlier run");
    pane.keys(" and now", "Enter");
    await pane.until("Again.");
    expect(lastUserText()).toBe("from an earlier run and now");
    pane.keys("C-d");
    await pane.until("EXIT=0");
    expect(await Bun.file(file).text()).toBe(`${JSON.stringify("from an earlier run")}\n${JSON.stringify("from an earlier run and now")}\n`);
  }, 30_000);

  test("a pasted 10,000-line text is one prompt, shown as a placeholder and sent whole", async () => {
    const { pane } = await start({ name: "paste" });
    suite.fake.script({ reply: [{ type: "text", text: "Counted them." }] });
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`).join("\n");
    const before = suite.fake.requests.length;
    pane.keys("count these: ");
    pane.paste(lines);
    await pane.until("[pasted text #1: 10000 lines");
    expect(suite.fake.requests.length).toBe(before); // no line of the paste was taken as Enter
    pane.keys("Enter");
    await pane.until("Counted them.");
    expect(suite.fake.requests.length).toBe(before + 1);
    const sent = lastUserText();
    expect(sent.startsWith("count these: line 1\nline 2\n")).toBe(true);
    expect(sent.endsWith("line 10000")).toBe(true);
    expect(sent.split("\n")).toHaveLength(10_000);
    pane.keys("C-d");
  }, 30_000);

  test("a paste from a terminal without bracketed paste (its lines arrive as Enters) is still one prompt", async () => {
    const { pane } = await start({ name: "paste-plain" });
    suite.fake.script({ reply: [{ type: "text", text: "Read all of it." }] });
    const lines = Array.from({ length: 2_000 }, (_, i) => `row ${i + 1}`).join("\n");
    const before = suite.fake.requests.length;
    pane.keys("look: ");
    pane.paste(lines, false);
    await pane.until("row 2000");
    await Bun.sleep(200);
    expect(suite.fake.requests.length).toBe(before);
    pane.keys("Enter");
    await pane.until("Read all of it.");
    expect(suite.fake.requests.length).toBe(before + 1);
    const sent = lastUserText();
    expect(sent.startsWith("look: row 1\nrow 2\n")).toBe(true);
    expect(sent.split("\n")).toHaveLength(2_000);
    pane.keys("C-d");
  }, 30_000);

  test("a prompt typed while a turn runs is queued, shown as queued, and runs after it", async () => {
    const { pane } = await start({ name: "queue" });
    suite.fake.script(
      { reply: [{ type: "text", text: "A slow first answer arriving bit by bit." }], chunkSize: 4, delayMs: 120 },
      { reply: [{ type: "text", text: "The queued one answered." }] },
    );
    pane.keys("first", "Enter");
    await pane.until("A slow");
    pane.keys("second please", "Enter");
    await pane.until("queued: second please");
    await pane.until("The queued one answered.");
    expect(lastUserText()).toBe("second please");
    const shown = pane.screen({ joined: true });
    expect(shown.indexOf("bit by bit.")).toBeLessThan(shown.indexOf("› second please"));
    expect(shown).not.toContain("queued:");
    pane.keys("C-d");
  }, 30_000);

  test("Ctrl-C in a permission dialog rejects the call, stops the turn and gives the prompt back", async () => {
    const { pane, work } = await start({ name: "dialog-interrupt" });
    const marker = join(work, "never-made");
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "bash", input: { command: `touch ${marker}` } }] },
      { reply: [{ type: "text", text: "Fresh start." }] },
    );
    pane.keys("make it", "Enter");
    await pane.until("wants to:");
    pane.keys("C-c");
    await pane.until("(interrupted)");
    expect(existsSync(marker)).toBe(false);
    expect(pane.screen()).not.toContain("1. Yes");
    pane.keys("again", "Enter");
    await pane.until("Fresh start.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("a prompt waiting for another process's run on the session says who holds it; Ctrl-C stops the wait", async () => {
    const { pane, data } = await start({ name: "lease-wait", env: { REIN_LEASE_WAIT_MS: "60000" } });
    // Another rein (this test's process, alive) holds the session's lease.
    const db = new Database(join(data, "rein.db"));
    const { id } = db.query("SELECT id FROM sessions").get() as { id: string };
    const now = Date.now();
    db.query("INSERT INTO leases (session_id, holder, pid, host, acquired_at, expires_at) VALUES (?, 'other', ?, ?, ?, ?)").run(id, process.pid, hostname(), now, now + 600_000);
    pane.keys("hello", "Enter");
    await pane.until("waiting up to 60 s");
    expect(pane.screen()).toContain(`session ${id} is in use by another rein (pid ${process.pid}, since`);
    expect(pane.screen()).toContain("(Esc or Ctrl-C stops waiting)");
    pane.keys("C-c");
    await pane.until("(interrupted)");
    expect(suite.fake.requests).toHaveLength(0);
    // Once the other run is done, the next prompt goes through.
    db.query("DELETE FROM leases WHERE session_id = ?").run(id);
    db.close();
    suite.fake.script({ reply: [{ type: "text", text: "Got it now." }] });
    pane.keys("again", "Enter");
    await pane.until("Got it now.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("a prompt typed while a turn runs into a dialog answers nothing: its letters stay in the prompt", async () => {
    const { pane } = await start({ name: "typed-ahead" });
    const gate = Promise.withResolvers<void>();
    suite.fake.script(
      { waitFor: gate.promise, reply: [{ type: "tool_use", name: "bash", input: { command: "npm install left-pad" } }] },
      { reply: [{ type: "text", text: "Not installed." }] },
      { reply: [{ type: "text", text: "Docs checked." }] },
    );
    const before = suite.fake.requests.length;
    pane.keys("install it", "Enter");
    // The turn has begun (its request is held) before the next prompt is typed.
    for (let i = 0; i < 200 && suite.fake.requests.length === before; i++) await Bun.sleep(25);
    pane.keys("please check an");
    await pane.until("› please check an");
    gate.resolve();
    await pane.until("wants to:");
    // The rest of the word and the prompt, typed as the dialog appears: `a` was "always", `u` "for me".
    pane.keys("d update the docs");
    const held = await pane.until("› please check and update the docs");
    expect(held).toContain("npm install left-pad");
    expect(held).not.toMatch(/allowed|rejected/);
    await pane.until("Enter confirms");
    pane.keys("Escape");
    await pane.until("Not installed.");
    expect(pane.screen()).toContain("rejected");
    expect(existsSync(join(suite.dir.path, "typed-ahead-config", "config.json"))).toBe(false); // no rule saved for good
    await pane.until(/› please check and update the docs$/m);
    pane.keys("Enter");
    await pane.until("Docs checked.");
    expect(lastUserText()).toBe("please check and update the docs");
  }, 30_000);

  test("Shift-Tab switches the permission mode mid-session; the dialog's all-edits answer does too", async () => {
    const { pane, work } = await start({ name: "mode-cycle" });
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "write", input: { path: "a.txt", content: "a\n" } }] },
      { reply: [{ type: "text", text: "Wrote a." }] },
      { reply: [{ type: "tool_use", name: "write", input: { path: "b.txt", content: "b\n" } }] },
      { reply: [{ type: "text", text: "Wrote b." }] },
    );
    pane.keys("BTab");
    await pane.until("permission mode: accept-edits");
    await pane.until("⏵⏵ accept-edits on (shift+tab to cycle)");
    pane.keys("write a", "Enter");
    await pane.until("Wrote a."); // no dialog: edits in the workspace run
    expect(existsSync(join(work, "a.txt"))).toBe(true);
    pane.keys("BTab");
    await pane.until("permission mode: default");
    pane.keys("write b", "Enter");
    await pane.until("3. Yes, allow all edits this session (shift+tab)");
    await pane.until("Enter confirms");
    pane.keys("3", "Enter");
    await pane.until("Wrote b.");
    expect(pane.screen()).toContain("⏵⏵ accept-edits on");
  }, 30_000);

  test("always from the dialog saves the exact rule; /permissions lists it and revokes it", async () => {
    const { pane, work } = await start({ name: "always" });
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "bash", input: { command: "git checkout -b topic" } }] },
      { reply: [{ type: "text", text: "Branch made." }] },
    );
    pane.keys("status", "Enter");
    await pane.until("always saves: bash(git checkout *)");
    await pane.until("Enter confirms");
    pane.keys("2", "Enter"); // 2. Yes, always (this session)
    await pane.until("Branch made.");
    pane.keys("/permissions", "Enter");
    await pane.until(/approved in this session:\n\s+1\. bash\(git checkout \*\)/);
    expect(pane.screen({ joined: true })).toMatch(/\d+ built-in rules/);
    pane.keys("/permissions revoke 1", "Enter");
    await pane.until("revoked: bash(git checkout *)");
    pane.keys("/permissions", "Enter");
    await pane.until(/revoked: bash\(git checkout \*\)[\s\S]*approved in this session:\n\s+none/);
    expect(work).toBeTruthy();
    pane.keys("C-d");
  }, 30_000);

  test("custom commands from .rein/commands and the user's commands folder become prompts", async () => {
    const config = join(suite.dir.path, "custom-config");
    await Bun.write(join(config, "commands", "explain.md"), "---\ndescription: explain a file\n---\nExplain $ARGUMENTS in two sentences.\n");
    const { pane } = await start({ name: "custom", env: { REIN_CONFIG_DIR: config } });
    suite.fake.script({ reply: [{ type: "text", text: "Explained." }] });
    pane.keys("/help", "Enter");
    await pane.until(/\/explain\s+explain a file \(user command\)/);
    pane.keys("/explain src/main.ts", "Enter");
    await pane.until("Explained.");
    expect(lastUserText()).toBe("Explain src/main.ts in two sentences.\n");
    pane.keys("C-d");
  }, 30_000);

  test("/model changes the model of the next turn; /clear starts a new session; /sessions and /resume go back to the old one", async () => {
    const { pane } = await start({ name: "sessions" });
    suite.fake.script(
      { reply: [{ type: "text", text: "Answer in the first session." }] },
      { reply: [{ type: "text", text: "Answer from haiku." }] },
      { reply: [{ type: "text", text: "Answer in the second session." }] },
      { reply: [{ type: "text", text: "Back in the first." }] },
    );
    pane.keys("first session prompt", "Enter");
    await pane.until("Answer in the first session.");
    const first = /session (s_\w+) · claude-sonnet-5-5/.exec(pane.screen({ joined: true }))![1]!;
    pane.keys("/model claude-haiku-4-5", "Enter");
    await pane.until("model: claude-haiku-4-5 from the next turn");
    pane.keys("which model", "Enter");
    await pane.until("Answer from haiku.");
    expect((suite.fake.requests.at(-1)!.body as { model: string }).model).toBe("claude-haiku-4-5");
    await pane.until(/claude-haiku-4-5 · context \d+% of 200k/);

    pane.keys("/clear", "Enter");
    await pane.until(/new session s_\w+ · claude-haiku-4-5/);
    pane.keys("second session prompt", "Enter");
    await pane.until("Answer in the second session.");
    expect((suite.fake.requests.at(-1)!.body as Body).messages).toHaveLength(1);

    pane.keys("/sessions", "Enter");
    await pane.until(new RegExp(`  ${first} .*first session prompt`));
    pane.keys(`/resume ${first}`, "Enter");
    await pane.until(`resumed session ${first}`);
    pane.keys("and now", "Enter");
    await pane.until("Back in the first.");
    const texts = (suite.fake.requests.at(-1)!.body as Body).messages.map((m) => m.content.find((b) => b.type === "text")?.text);
    expect(texts).toEqual(["first session prompt", "Answer in the first session.", "which model", "Answer from haiku.", "and now"]);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("/compact summarises the conversation, says how much it saved, and /cost counts the summary call", async () => {
    const { pane } = await start({ name: "compact", args: "-m claude-sonnet-5-5" });
    const usage = { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    suite.fake.script(
      // answers long enough (about 700 tokens each) to be worth compacting
      { reply: [{ type: "text", text: `${"The parser reads tokens. ".repeat(110)}First answer.` }], usage },
      { reply: [{ type: "text", text: `${"The lexer makes tokens. ".repeat(110)}Second answer.` }], usage },
      { reply: [{ type: "text", text: "They talked about the parser." }], usage: { ...usage, input_tokens: 500, output_tokens: 50 } },
    );
    pane.keys("/compact", "Enter");
    await pane.until("nothing worth compacting");
    pane.keys("one", "Enter");
    await pane.until("First answer.");
    pane.keys("two", "Enter");
    await pane.until("Second answer.");
    pane.keys("/compact the parser", "Enter");
    await pane.until(/\(context compacted: earlier conversation summarised, ~\d+ -> ~\d+ tokens\)/);
    expect(JSON.stringify(suite.fake.requests.at(-1)!.body)).toContain("the parser");
    pane.keys("/cost", "Enter");
    // two runs of 1000 in / 100 out, the summary call's 500 / 50 and the title call's 60 / 6, at $2 / $10 per million
    await pane.until(/2 runs: tokens: in 2560 .* out 256 · \$0\.0077/);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("a 40-column and a 200-column terminal, and a resize in between, keep the dialog and the prompt whole", async () => {
    const { pane } = await start({ name: "narrow", columns: 40, rows: 30 });
    suite.fake.script(
      { reply: [{ type: "tool_use", name: "bash", input: { command: "npm install left-pad --save-exact" } }] },
      { reply: [{ type: "text", text: "A long answer that has to wrap over several rows in a terminal only forty columns wide." }] },
    );
    pane.keys("install it", "Enter");
    const dialog = await pane.until("Enter confirms");
    for (const key of ["1. Yes", "2. Yes, always (this session)", "No (esc)", "No, and tell it what to do"]) expect(dialog).toContain(key);
    for (const row of pane.screen().split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    pane.keys("Escape");
    await pane.until("rejected");
    await pane.until("columns wide.");
    pane.resize(200, 30);
    pane.keys("a prompt typed after the resize");
    await pane.until(/› a prompt typed after the resize$/m);
    const wide = pane.screen();
    expect(wide.split("\n").filter((row) => row.includes("› a prompt typed after the resize"))).toHaveLength(1);
    pane.keys("C-u", "C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("a terminal closed mid-turn (SIGHUP): the process exits and the session keeps what was shown", async () => {
    const work = join(suite.dir.path, "hangup");
    mkdirSync(join(work, ".git"), { recursive: true });
    const data = join(suite.dir.path, "hangup-data");
    suite.fake.script({ reply: [{ type: "text", text: "Streaming slowly so the terminal can close mid-answer, word by word." }], chunkSize: 3, delayMs: 150 });
    const env = `ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${suite.fake.url} REIN_DATA_DIR=${data} REIN_CONFIG_DIR=${join(suite.dir.path, "hangup-config")} NO_COLOR=1`;
    const pane = server.open(`exec env ${env} ${BIN}`, work);
    await pane.until("Ctrl-D exits");
    const pid = pane.pid();
    pane.keys("talk slowly", "Enter");
    await pane.until("Streaming");
    pane.kill();
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await Bun.sleep(50);
    expect(alive(pid)).toBe(false);
    const db = new Database(join(data, "rein.db"), { readonly: true });
    const types = db.query("SELECT type FROM events ORDER BY seq").all().map((r) => (r as { type: string }).type);
    const result = db.query("SELECT data FROM events WHERE type = 'result'").get() as { data: string } | null;
    db.close();
    expect(types.slice(0, 3)).toEqual(["session", "user", "text_delta"]);
    expect(types.at(-1)).toBe("result");
    expect(JSON.parse(result!.data).status).toBe("interrupted");
  }, 30_000);

  test("Ctrl-Z gives the shell its terminal back; fg brings the prompt back as it was", async () => {
    const work = join(suite.dir.path, "suspend");
    mkdirSync(join(work, ".git"), { recursive: true });
    const pane = server.open("bash --norc --noprofile", work);
    await Bun.sleep(300);
    const env = `ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${suite.fake.url} REIN_DATA_DIR=${join(suite.dir.path, "suspend-data")} REIN_CONFIG_DIR=${join(suite.dir.path, "suspend-config")} NO_COLOR=1`;
    pane.keys(`env ${env} ${BIN}`, "Enter");
    await pane.until("Ctrl-D exits");
    pane.keys("half typed", "C-z");
    await pane.until("Stopped");
    pane.keys("stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; echo MODE-CHECKED", "Enter");
    const shell = await pane.until(/^MODE-CHECKED$/m);
    expect(shell).toMatch(/^icanon$/m); // cooked mode while rein is stopped
    pane.keys("fg", "Enter");
    pane.keys(" prompt");
    await pane.until(/› half typed prompt$/m);
    pane.keys("C-u", "C-d");
    // rein left: the shell's prompt is the last thing on the screen again.
    await pane.until(/\bfg\n[\s\S]*[$#] *\n*$/);
    pane.kill();
  }, 30_000);

  test("the terminal is restored after Ctrl-D, after a second Ctrl-C, and after a crash", async () => {
    const first = await start({ name: "restore-d" });
    first.pane.keys("C-d");
    // No prompt was sent: no session is left behind to resume.
    expect(await first.pane.until(/EXIT=0\n\s*icanon/)).not.toContain("resume: rein -r");

    const second = await start({ name: "restore-c" });
    second.pane.keys("C-c");
    await second.pane.until("press Ctrl-C again to exit");
    second.pane.keys("C-c");
    await second.pane.until(/EXIT=0\n\s*icanon/);

    const crash = await start({ name: "restore-crash", env: { REIN_CRASH_TEST_PROMPT: "crash now" } });
    crash.pane.keys("crash now", "Enter");
    const shown = await crash.pane.until(/EXIT=1\n\s*icanon/);
    expect(shown).toContain("rein: internal error: Error: crash test");
  }, 40_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
