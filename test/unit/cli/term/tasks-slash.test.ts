// /tasks over a real store: the children of the session (and theirs) numbered as a tree, running
// or finished; /tasks N prints that child's transcript; a number that names none says so.
import { afterAll, expect, test } from "bun:test";
import chalk from "chalk";
import { tasksSlash } from "../../../../src/cli/term/tasks-slash.ts";
import { Store } from "../../../../src/session/store.ts";

chalk.level = 0;
const { store } = Store.open(":memory:");
afterAll(() => store.close());

const usage = { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

function child(id: string, parent: string, agent: string, title: string): void {
  store.createSession({ id, cwd: "/w", model: "m", settings: null });
  store.linkChild(id, { parentId: parent, toolUseId: `toolu_${id}`, agent });
  store.updateSession(id, { title });
}

test("lists the subagents as a tree, running or finished, and prints one's transcript", () => {
  store.createSession({ id: "s_parent", cwd: "/w", model: "m", settings: null });
  expect(tasksSlash(store, "s_parent", "", 80, false)).toContain("this session has run no subagents yet");
  child("s_a", "s_parent", "explore", "find the handler");
  child("s_b", "s_a", "general", "check one file");
  store.appendEvent("s_a", { type: "user", text: "find the handler" });
  store.appendEvent("s_a", { type: "result", status: "success", text: "in src/x.ts", usage, cost_usd: 0.0012, turns: 1, duration_ms: 5 });
  store.appendEvent("s_b", { type: "user", text: "check one file" });

  expect(tasksSlash(store, "s_parent", "", 80, false)).toBe(
    ["  1. explore s_a · finished · $0.0012 · find the handler", "  2.   general s_b · running · $0.0000 · check one file", "open one's transcript with /tasks N"].join("\n"),
  );
  store.appendMessage("s_a", { role: "user", content: [{ type: "text", text: "find the handler" }] }, 1);
  store.appendMessage("s_a", { role: "assistant", content: [{ type: "text", text: "It is **in src/x.ts**." }] }, 2);
  const shown = tasksSlash(store, "s_parent", "1", 80, false);
  expect(shown).toContain("find the handler");
  expect(shown).toContain("It is in src/x.ts.");
  expect(tasksSlash(store, "s_parent", "s_b", 80, false)).toContain("subagent general of s_a");
  expect(tasksSlash(store, "s_parent", "3", 80, false)).toBe("no task 3 here: /tasks lists them (1 to 2)");
});
