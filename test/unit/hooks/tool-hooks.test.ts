// PreToolUse / PostToolUse / Stop hooks as real shell scripts, through a real Session.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sentMessages, sentResults, useKit } from "../../support/session-kit.ts";
import edit from "../../../tools/edit.ts";
import { bashCall, hookedSession, hooksOf, say, script, TOOLS, writeCall } from "./hook-kit.ts";

const kit = useKit();
const resultText = (i: number, n = 0) => {
  const content = sentResults(kit().fake.requests[i])[n]!.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};

test("a PreToolUse hook that exits 2 blocks the call; the model reads its stderr as a hook's decision", async () => {
  const marker = join(kit().dir.path, "ran-1");
  const hook = script(kit(), `echo "rm is not allowed here" >&2; exit 2`);
  const { session, log } = hookedSession(kit(), hooksOf(["PreToolUse", "Bash", hook]));
  kit().fake.script(bashCall("t1", `touch ${marker}`), say("ok"));

  await session.prompt("go");

  expect(existsSync(marker)).toBe(false);
  const text = resultText(1);
  expect(text).toContain("A PreToolUse hook configured by the user (not the user's answer) blocked this call: rm is not allowed here");
  expect(log.of("hook_end")[0]).toMatchObject({ event: "PreToolUse", decision: "deny", tool_use_id: "t1" });
});

test("a Claude Code file's hook sees Claude Code's names and an absolute file_path, and its updatedInput is what runs", async () => {
  const seen = join(kit().dir.path, "payload.json");
  const target = join(kit().dir.path, "replaced.txt");
  const out = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { file_path: target, content: "from the hook" } } });
  const hook = script(kit(), `cat > ${seen}; echo "$CLAUDE_PROJECT_DIR" > ${seen}.dir; echo '${out}'`);
  const { session } = hookedSession(kit(), hooksOf(["PreToolUse", "Write|Edit", hook]), { claude: true });
  kit().fake.script(writeCall("t1", "asked.txt", "from the model"), say("ok"));

  await session.prompt("write");

  const payload = JSON.parse(readFileSync(seen, "utf8"));
  expect(payload).toMatchObject({
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_use_id: "t1",
    tool_input: { file_path: join(kit().dir.path, "asked.txt"), content: "from the model" },
    session_id: session.id,
    cwd: kit().dir.path,
  });
  expect(existsSync(payload.transcript_path)).toBe(true);
  expect(readFileSync(`${seen}.dir`, "utf8").trim()).toBe(kit().dir.path);
  expect(readFileSync(target, "utf8")).toBe("from the hook");
  expect(existsSync(join(kit().dir.path, "asked.txt"))).toBe(false);
});

test("an updatedInput that fails the tool's schema does not run, and the model is told why", async () => {
  const hook = script(kit(), `echo '{"hookSpecificOutput":{"updatedInput":{"command":42}}}'`);
  const { session } = hookedSession(kit(), hooksOf(["PreToolUse", "bash", hook]));
  kit().fake.script(bashCall("t1", "echo ran"), say("ok"));

  await session.prompt("go");

  expect(resultText(1)).toContain("A hook replaced this call's input with one that is not valid");
  expect(resultText(1)).not.toContain("ran\n");
});

test("PostToolUse context and output replacement reach the model; the tool ran first", async () => {
  const hook = script(kit(), `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatter: 2 files changed","updatedToolOutput":"REDACTED"}}'`);
  const { session, log } = hookedSession(kit(), hooksOf(["PostToolUse", "*", hook]));
  kit().fake.script(bashCall("t1", "echo secret-output"), say("ok"));

  await session.prompt("go");

  const text = resultText(1);
  expect(text).toStartWith("REDACTED");
  expect(text).toContain('<hook-context event="PostToolUse">\nformatter: 2 files changed');
  expect(text).not.toContain("secret-output");
  expect(log.of("hook_end")[0]).toMatchObject({ event: "PostToolUse", decision: "context" });
});

test("a Stop hook keeps the run going with its reason, sees stop_hook_active on the next stop, and lets it end", async () => {
  const hook = script(kit(), `if grep -q '"stop_hook_active":true'; then exit 0; fi; echo '{"decision":"block","reason":"run the tests first"}'`);
  const { session } = hookedSession(kit(), hooksOf(["Stop", undefined, hook]));
  kit().fake.script(say("done"), say("tests ran"));

  const result = await session.prompt("go");

  expect(result).toMatchObject({ status: "success", text: "tests ran" });
  const last = sentMessages(kit().fake.requests[1]).at(-1)!;
  expect(JSON.stringify(last.content)).toContain("kept the run going: run the tests first");
});

test("a Stop hook that always blocks is stopped after 8 continuations", async () => {
  const hook = script(kit(), `echo '{"decision":"block","reason":"again"}'`);
  const { session } = hookedSession(kit(), hooksOf(["Stop", "", hook]));
  kit().fake.script(...Array.from({ length: 9 }, (_, i) => say(`reply ${i}`)));

  const result = await session.prompt("go");

  expect(result).toMatchObject({ status: "success", text: "reply 8" });
  expect(kit().fake.requests).toHaveLength(9);
});

test("UserPromptSubmit: plain stdout is context beside the prompt; exit 2 refuses the prompt before it is sent", async () => {
  const context = script(kit(), `echo "ticket ABC-12"`);
  const first = hookedSession(kit(), hooksOf(["UserPromptSubmit", undefined, context]));
  kit().fake.script(say("ok"));
  await first.session.prompt("fix it");
  expect(JSON.stringify(sentMessages(kit().fake.requests[0])[0])).toContain("ticket ABC-12");

  kit().fake.reset();
  const refuse = script(kit(), `echo "no prompts on Fridays" >&2; exit 2`);
  const second = hookedSession(kit(), hooksOf(["UserPromptSubmit", undefined, refuse]));
  const result = await second.session.prompt("fix it");
  expect(result).toMatchObject({ status: "error", error: "a UserPromptSubmit hook blocked the prompt: no prompts on Fridays" });
  expect(kit().fake.requests).toHaveLength(0);
});

test("a PostToolUse hook that edits the file it was about: the model's next edit is refused until it reads it again, nothing is overwritten", async () => {
  const file = join(kit().dir.path, "formatted.txt");
  const hook = script(kit(), `f=$(sed -n 's/.*"file_path":"\\([^"]*\\)".*/\\1/p'); echo "// formatted" >> "$f"`);
  const { session } = hookedSession(kit(), hooksOf(["PostToolUse", "Write", hook]), { claude: true, tools: [...TOOLS, edit] });
  kit().fake.script(
    writeCall("t1", file, "one\n"),
    { reply: [{ type: "tool_use", name: "edit", input: { path: file, old_string: "one\n", new_string: "two\n" }, id: "t2" }] },
    say("ok"),
  );

  await session.prompt("write then edit");

  expect(readFileSync(file, "utf8")).toBe("one\n// formatted\n");
  expect(resultText(2)).toContain("changed on disk since you last read it. Read it again");
});

test("the transcript a hook reads holds every event up to its call, and is appended across runs", async () => {
  const seen = join(kit().dir.path, "seen-in-transcript");
  const hook = script(kit(), `t=$(sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p'); grep -c '"type":"tool_start"' "$t" >> ${seen}`);
  const { session, log } = hookedSession(kit(), hooksOf(["PostToolUse", "Bash", hook]));
  kit().fake.script(bashCall("t1", "echo one"), say("ok"), bashCall("t2", "echo two"), say("ok"));

  await session.prompt("first");
  await session.prompt("second");

  expect(readFileSync(seen, "utf8")).toBe("1\n2\n");
  const lines = readFileSync(join(kit().dir.path, "output", session.id, "transcript.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(lines.map((e) => e.seq)).toEqual(log.events.filter((e) => e.type !== "text_delta" && e.type !== "tool_output").map((e) => e.seq));
});
