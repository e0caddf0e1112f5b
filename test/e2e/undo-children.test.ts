// Undo after subagents, through the compiled binary (issue 31 item 6): a parent's turn covers what
// its children changed, so `rein undo` on the parent puts their files back (a background worker's
// too in print mode, whose run waits for it). A worker writing after its parent's run was recorded
// is test/unit/checkpoint/undo-children.test.ts: there the undo refuses and cuts nothing.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { messagesOf, text, world } from "./harness.ts";

const task = (id: string, prompt: string, background = false) => ({
  type: "tool_use" as const,
  name: "task",
  id,
  input: { description: prompt, prompt, subagent_type: "general", ...(background ? { run_in_background: true, name: "writer" } : {}) },
});
const call = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const promptOf = (b: any) => JSON.stringify(b.messages[0]?.content ?? "");

test.concurrent("children write files in one turn; rein undo on the parent puts them back and cuts the turn", async () => {
  await using w = await world();
  await writeFile(w.path("kept.txt"), "before\n");
  // The first child writes a new file; the second reads, then edits, a file that was there.
  const child = (b: any) => {
    const results = (JSON.stringify(b.messages).match(/tool_result/g) ?? []).length;
    if (promptOf(b).includes("first")) return results ? { reply: [text("written")] } : { reply: [call("write", { path: "new.txt", content: "from a child\n" })] };
    if (results === 0) return { reply: [call("read", { path: "kept.txt" })] };
    return results === 1 ? { reply: [call("edit", { path: "kept.txt", old_string: "before", new_string: "after" })] } : { reply: [text("edited")] };
  };
  w.fake.script(
    { reply: [task("toolu_one", "first child"), task("toolu_two", "second child")] },
    ...Array.from({ length: 5 }, () => ({ respond: child })),
    { reply: [text("both done")] },
    { reply: [text("next")] },
  );
  const run = await w.runStream(["-p", "let the children write", "--permission-mode", "accept-edits"]);
  expect(run.code).toBe(0);
  expect(await readFile(w.path("kept.txt"), "utf8")).toBe("after\n");
  expect(existsSync(w.path("new.txt"))).toBe(true);
  // The parent's own checkpoint lists what its children changed.
  const own = run.events.find((e) => e.type === "checkpoint" && !e.parent_tool_use_id);
  expect(own?.changed).toEqual(expect.arrayContaining([{ status: "added", path: "new.txt" }, { status: "modified", path: "kept.txt" }]));

  const undo = await w.run(["undo"]);
  expect(undo.stderr).toBe("");
  expect(undo.code).toBe(0);
  expect(undo.stdout).toContain("code of 1 turn undone: 2 files put back");
  expect(undo.stdout).toContain('conversation cut back to before "let the children write"');
  expect(await readFile(w.path("kept.txt"), "utf8")).toBe("before\n");
  expect(existsSync(w.path("new.txt"))).toBe(false);

  // The next -c starts from before the undone turn.
  expect((await w.run(["-c", "-p", "again"])).code).toBe(0);
  expect(JSON.stringify(messagesOf(w.fake.requests.at(-1)))).not.toContain("let the children write");
}, 60_000);

test.concurrent("print mode: a background worker's files are covered by the run that waited for it; undo of its turns puts them back", async () => {
  await using w = await world();
  let lead = 0;
  const step = (b: any) => {
    if (promptOf(b).includes("write late.txt")) {
      if (JSON.stringify(b.messages).includes("tool_result")) return { reply: [text("written")] };
      return { reply: [call("write", { path: "late.txt", content: "late\n" })] };
    }
    lead++;
    if (lead === 1) return { reply: [task("toolu_bg", "write late.txt", true)] };
    return { reply: [text(lead === 2 ? "started it" : "the writer is done")] };
  };
  w.fake.script(...Array.from({ length: 6 }, () => ({ respond: step })));
  const run = await w.runStream(["-p", "start a writer", "--permission-mode", "accept-edits"], { timeoutMs: 40_000 });
  expect(run.code).toBe(0);
  expect(await readFile(w.path("late.txt"), "utf8")).toBe("late\n");
  const own = run.events.find((e) => e.type === "checkpoint" && !e.parent_tool_use_id);
  expect(own?.changed).toEqual([{ status: "added", path: "late.txt" }]);

  // The notification's turn and the prompt's: both cut, the worker's file put back.
  const undo = await w.run(["undo", "--turns", "2"]);
  expect(undo.stderr).toBe("");
  expect(undo.code).toBe(0);
  expect(undo.stdout).toContain("1 file put back");
  expect(existsSync(w.path("late.txt"))).toBe(false);
}, 60_000);
