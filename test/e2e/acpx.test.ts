// A second, independent ACP client driving the compiled `rein acp`: acpx (npm, a headless CLI
// client with its own session and permission handling, on the SDK's older 1.x line), run with node
// as a user would. It offers the fs capabilities, so rein's read and write go through it.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, ROOT, world, type World } from "./harness.ts";

const ACPX = join(ROOT, "node_modules/acpx/dist/cli.js");

type Line = { id?: number; method?: string; params?: Record<string, any>; result?: Record<string, any> };

async function acpx(w: World, flags: string[], prompt: string): Promise<{ code: number; lines: Line[]; stderr: string }> {
  const proc = Bun.spawn(["node", ACPX, "--agent", `${BINARY} acp`, "--cwd", w.cwd, "--format", "json", ...flags, "exec", prompt], {
    cwd: w.cwd,
    env: w.env(),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr, lines: stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line) };
}

const updates = (lines: Line[]) => lines.filter((l) => l.method === "session/update").map((l) => l.params!.update);

test("acpx runs a prompt: rein reads through acpx's fs, asks, acpx approves, the write lands and the turn ends", async () => {
  await using w = await world();
  await Bun.write(w.path("todo.txt"), "buy milk\n");
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_r1", name: "read", input: { path: "todo.txt" } }] },
    { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "done.txt", content: "bought milk\n" } }] },
    { reply: [{ type: "text", text: "Milk is done." }] },
  );
  const { code, lines, stderr } = await acpx(w, ["--approve-all"], "do the todo");
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const init = lines.find((l) => l.result?.protocolVersion !== undefined);
  expect(init?.result).toMatchObject({ protocolVersion: 1, agentInfo: { name: "rein" } });
  // the model's read, then the write's file as it is (the permission card's diff: no file yet, so oldText null)
  expect(lines.filter((l) => l.method === "fs/read_text_file").map((l) => l.params!.path)).toEqual([w.path("todo.txt"), w.path("done.txt")]);
  expect(JSON.stringify(w.fake.requests[1]!.body.messages)).toContain("buy milk");
  const asks = lines.filter((l) => l.method === "session/request_permission");
  expect(asks.map((l) => l.params!.toolCall.toolCallId)).toEqual(["toolu_w1"]);
  expect(asks[0]!.params!.toolCall.content?.[0]).toEqual({ type: "diff", path: w.path("done.txt"), oldText: null, newText: "bought milk\n" });
  expect(lines.filter((l) => l.method === "fs/write_text_file").map((l) => l.params)).toEqual([expect.objectContaining({ path: w.path("done.txt"), content: "bought milk\n" })]);
  expect(await Bun.file(w.path("done.txt")).text()).toBe("bought milk\n");
  expect(updates(lines).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w1")).toMatchObject({ status: "completed" });
  expect(updates(lines).find((u) => u.sessionUpdate === "agent_message_chunk")).toMatchObject({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Milk is done." }, messageId: expect.any(String) });
  // the prompt's answer (the session's title may follow it: it is named after its first turn)
  expect(lines.filter((l) => l.result !== undefined).at(-1)?.result).toEqual({ stopReason: "end_turn" });
});

test("acpx --deny-all refuses the write: nothing is written and the model is told", async () => {
  await using w = await world();
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "x.txt", content: "x" } }] },
    { reply: [{ type: "text", text: "I was not allowed." }] },
  );
  const { lines } = await acpx(w, ["--deny-all"], "write x");
  expect(updates(lines).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w1")).toMatchObject({ status: "failed" });
  expect(lines.some((l) => l.method === "fs/write_text_file")).toBe(false);
  expect(await Bun.file(w.path("x.txt")).exists()).toBe(false);
  expect(JSON.stringify(w.fake.requests[1]!.body.messages)).toContain("tool_result");
});
