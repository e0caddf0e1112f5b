// `rein acp` as an editor's pickers and history see it: configOptions (mode and model) offered and
// switched, rein's own commands (/compact, /undo, /model) run by rein, each message's chunks under one
// messageId, and session/load replaying the conversation as it happened (the prompt as typed, its
// image and attached file, the plan, the mode the session was left in).
import { afterEach, describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fakeTitle } from "../fake/server.ts";
import { INIT, newWorld, startAgent, stopAgents } from "./acp-client.ts";

afterEach(stopAgents);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: acp.RequestError) => e);
const selectOf = (options: acp.SessionConfigOption[] | null | undefined, id: string) => {
  const option = options?.find((o) => o.id === id);
  if (option?.type !== "select") throw new Error(`no select option ${id}`);
  return { current: option.currentValue, values: option.options.flatMap((o) => ("group" in o ? o.options : [o])).map((o) => o.value), category: option.category };
};

describe("rein acp: config options", () => {
  test("mode and model are offered; the model switched by set_config_option runs the next turn; a bad value is invalid params naming it", async () => {
    const w = await newWorld();
    w.fake.script({ reply: [{ type: "text", text: "On haiku." }] });
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const created = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const mode = selectOf(created.configOptions, "mode");
    expect(mode).toMatchObject({ current: "default", category: "mode" });
    expect(mode.values).toEqual(created.modes!.availableModes.map((m) => m.id));
    const model = selectOf(created.configOptions, "model");
    expect(model.category).toBe("model");
    expect(model.values).toContain(model.current);
    expect(model.values).toContain("claude-haiku-4-5");

    const set = await agent.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "claude-haiku-4-5" });
    expect(selectOf(set.configOptions, "model").current).toBe("claude-haiku-4-5");
    await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId: created.sessionId, prompt: [{ type: "text", text: "which model?" }] });
    expect(w.fake.requests.at(-1)!.body.model).toBe("claude-haiku-4-5");
    // After the first turn, the hidden title call names the session: the editor is told, and the lists have it.
    expect(await agent.update((u) => u.sessionUpdate === "session_info_update")).toMatchObject({ sessionUpdate: "session_info_update", title: fakeTitle("which model?"), updatedAt: expect.any(String) });
    expect(w.fake.titleRequests).toHaveLength(1);
    expect(JSON.stringify(w.fake.titleRequests[0]!.body.messages)).toContain("which model?");
    const listed = await agent.conn.agent.request(acp.methods.agent.session.list, { cwd: w.cwd });
    expect(listed.sessions.find((s) => s.sessionId === created.sessionId)?.title).toBe(fakeTitle("which model?"));
    expect((await w.run(["sessions", "list"])).stdout).toContain(fakeTitle("which model?"));

    const bad = await failure(agent.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "gpt-99" }));
    expect(bad?.code).toBe(-32602);
    expect(bad?.message).toContain("gpt-99");
    const unknown = await failure(agent.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "colour", value: "red" }));
    expect(unknown?.code).toBe(-32602);
    expect(unknown?.message).toContain("colour");

    const planned = await agent.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "mode", value: "plan" });
    expect(selectOf(planned.configOptions, "mode").current).toBe("plan");
    expect(await agent.update((u) => u.sessionUpdate === "current_mode_update")).toEqual({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
  });

  test("set_mode tells the client the config options again; a loaded session comes back in the mode it was left in", async () => {
    const w = await newWorld();
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    await agent.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "accept-edits" });
    const update = await agent.update((u) => u.sessionUpdate === "config_option_update");
    expect(update.sessionUpdate === "config_option_update" ? selectOf(update.configOptions, "mode").current : "").toBe("accept-edits");
    agent.closeStdin();
    expect(await agent.exited).toBe(0);

    const second = startAgent(w);
    await second.conn.agent.request(acp.methods.agent.initialize, INIT);
    const loaded = await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: w.cwd, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("accept-edits");
    expect(selectOf(loaded.configOptions, "mode").current).toBe("accept-edits");
  });
});

describe("rein acp: rein's commands", () => {
  test("/compact is run by rein (a summary call, not the text sent as a prompt) and says what it did; rein's commands are announced", async () => {
    const w = await newWorld();
    const long = "the parser reads tokens. ".repeat(200);
    w.fake.script({ reply: [{ type: "text", text: "First answer." }] }, { reply: [{ type: "text", text: "Second answer." }] }, { reply: [{ type: "text", text: "They asked about the parser." }] });
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const announced = await agent.update((u) => u.sessionUpdate === "available_commands_update");
    const names = announced.sessionUpdate === "available_commands_update" ? announced.availableCommands.map((c) => c.name) : [];
    expect(names).toEqual(expect.arrayContaining(["compact", "undo", "redo", "model"]));
    for (const text of [`how does the parser work? ${long}`, `and the lexer? ${long}`]) await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

    const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/compact the parser" }] });
    expect(done.stopReason).toBe("end_turn");
    const call = w.fake.requests.at(-1)!.body;
    expect(call.tools).toEqual([]);
    expect(JSON.stringify(call.messages)).toContain("Keep above all what concerns: the parser");
    expect(JSON.stringify(w.fake.requests.map((r) => r.body.messages))).not.toContain('"/compact the parser"');
    const said = agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === "agent_message_chunk").at(-1);
    expect(said?.sessionUpdate === "agent_message_chunk" && said.content.type === "text" ? said.content.text : "").toMatch(/^compacted: ~\d+ -> ~\d+ tokens/);
    expect(agent.updates.map((n) => n.update).some((u) => u.sessionUpdate === "usage_update" && u.used > 0)).toBe(true);
  });

  test("/undo takes a written file back and cuts the turn from the conversation; /model names the model without a model call", async () => {
    const w = await newWorld();
    w.fake.script({ reply: [{ type: "tool_use", id: "toolu_u1", name: "write", input: { path: "notes.txt", content: "after\n" } }] }, { reply: [{ type: "text", text: "Rewrote it." }] });
    const agent = startAgent(w, (ask) => ({ outcome: { outcome: "selected", optionId: ask.options.find((o) => o.kind === "allow_once")!.optionId } }));
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "rewrite the notes" }] });
    expect(await readFile(join(w.cwd, "notes.txt"), "utf8")).toBe("after\n");
    const calls = w.fake.requests.length;

    await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/undo" }] });
    expect(await Bun.file(join(w.cwd, "notes.txt")).exists()).toBe(false);
    const texts = () => agent.updates.map((n) => n.update).flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
    expect(texts().at(-1)).toContain('conversation cut back to before "rewrite the notes"');
    await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/model" }] });
    expect(texts().at(-1)).toMatch(/^model: /);
    expect(w.fake.requests.length).toBe(calls);
  });
});

describe("rein acp: session/load as it happened", () => {
  test("a command as typed, its image and attached file, the plan, and one messageId per message", async () => {
    const w = await newWorld();
    await mkdir(join(w.home, ".claude/skills/greet"), { recursive: true });
    await writeFile(join(w.home, ".claude/skills/greet/SKILL.md"), "---\nname: greet\ndescription: Greets someone\n---\nSay hello to $ARGUMENTS.\n");
    const todos = [
      { content: "read the notes", status: "done" },
      { content: "answer", status: "in_progress" },
    ];
    w.fake.script({ reply: [{ type: "tool_use", id: "toolu_t1", name: "todo", input: { todos } }] }, { reply: [{ type: "text", text: "Hello, " }, { type: "text", text: "Ada." }] });
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const notes = join(w.cwd, "notes.md");
    const prompt: acp.ContentBlock[] = [
      { type: "text", text: "/greet Ada" },
      { type: "resource", resource: { uri: `file://${notes}`, text: "Ada likes tea." } },
      { type: "image", data: PNG, mimeType: "image/png" },
    ];
    await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt });
    expect(JSON.stringify(w.fake.requests[0]!.body.messages)).toContain("Say hello to Ada");
    const live = agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(new Set(live.map((u) => (u.sessionUpdate === "agent_message_chunk" ? u.messageId : ""))).size).toBe(1);
    expect(live[0]?.sessionUpdate === "agent_message_chunk" ? live[0].messageId : undefined).toBeString();
    agent.closeStdin();
    await agent.exited;

    const second = startAgent(w);
    await second.conn.agent.request(acp.methods.agent.initialize, INIT);
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: w.cwd, mcpServers: [] });
    const replayed = second.updates.map((n) => n.update).filter((u) => u.sessionUpdate !== "available_commands_update");
    const user = replayed.filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => (u.sessionUpdate === "user_message_chunk" ? u : undefined)!);
    expect(user.map((u) => u.content)).toEqual([
      { type: "text", text: "/greet Ada" },
      { type: "resource", resource: { uri: `file://${notes}`, text: "Ada likes tea." } },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
    expect(new Set(user.map((u) => u.messageId)).size).toBe(1);
    expect(replayed.find((u) => u.sessionUpdate === "plan")).toEqual({
      sessionUpdate: "plan",
      entries: [
        { content: "read the notes", priority: "medium", status: "completed" },
        { content: "answer", priority: "medium", status: "in_progress" },
      ],
    });
    const answer = replayed.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => (u.sessionUpdate === "agent_message_chunk" ? u : undefined)!);
    expect(answer.map((u) => (u.content.type === "text" ? u.content.text : "")).join("")).toBe("Hello, Ada.");
    expect(new Set(answer.map((u) => u.messageId)).size).toBe(1);
    expect(answer[0]!.messageId).not.toBe(user[0]!.messageId);
  });
});
