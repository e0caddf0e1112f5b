// `rein acp` driven by the official ACP SDK's client side, spawning the compiled binary against the
// fake model server: a whole session (initialize, new, a prompt with a tool call and a permission
// round-trip, an edit whose update carries a diff, cancel, load and replay), and the bad inputs.
import { afterEach, describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { INIT, newWorld, startAgent, stopAgents } from "./acp-client.ts";

afterEach(stopAgents);


describe("rein acp", () => {
  test("a whole session: initialize, new, a write asked and allowed always, its diff, then load replays it", async () => {
    const w = await newWorld();
    w.fake.script(
      { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "notes.txt", content: "one\n" } }] },
      { reply: [{ type: "tool_use", id: "toolu_w2", name: "write", input: { path: "notes.txt", content: "two\n" } }] },
      { reply: [{ type: "text", text: "Wrote notes.txt twice." }] },
    );
    const agent = startAgent(w, (ask) => ({ outcome: { outcome: "selected", optionId: ask.options.find((o) => o.kind === "allow_always")!.optionId } }));
    const init = await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities).toMatchObject({ image: true, embeddedContext: true });
    expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    expect(init.agentInfo?.name).toBe("rein");

    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write the notes" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(await readFile(join(w.cwd, "notes.txt"), "utf8")).toBe("two\n");

    // Asked once: "allow always" covered the second write.
    expect(agent.asks).toHaveLength(1);
    const ask = agent.asks[0]!;
    expect(ask.sessionId).toBe(sessionId);
    expect(ask.toolCall).toMatchObject({ toolCallId: "toolu_w1", title: "write: notes.txt", kind: "edit", locations: [{ path: join(w.cwd, "notes.txt"), line: 1 }] });
    expect(ask.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(ask.options[1]!.name).toBe("Always allow edit(notes.txt) in this session");
    expect(ask.toolCall.content?.[0]).toEqual({ type: "diff", path: join(w.cwd, "notes.txt"), oldText: null, newText: "one\n" });
    const why = ask.toolCall.content?.[1];
    expect(why?.type === "content" && why.content.type === "text" ? why.content.text : "").toContain("asks:");

    const updates = agent.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    const call = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_w1");
    expect(call).toMatchObject({ title: "write: notes.txt", kind: "edit", status: "pending", rawInput: { path: "notes.txt", content: "one\n" } });
    const end = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w2" && u.status === "completed");
    expect(end?.sessionUpdate === "tool_call_update" ? end.content?.[0] : undefined).toEqual({ type: "diff", path: join(w.cwd, "notes.txt"), oldText: "one\n", newText: "two\n" });
    const text = updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [])).join("");
    expect(text).toBe("Wrote notes.txt twice.");
    expect(updates.some((u) => u.sessionUpdate === "usage_update" && u.used > 0 && u.size > 0)).toBe(true);

    // Nothing but JSON-RPC on stdout.
    for (const line of agent.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });

    const listed = await agent.conn.agent.request(acp.methods.agent.session.list, { cwd: w.cwd });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);

    // A second agent process loads the session and replays it.
    const second = startAgent(w);
    await second.conn.agent.request(acp.methods.agent.initialize, INIT);
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: w.cwd, mcpServers: [] });
    const replayed = second.updates.map((n) => n.update);
    expect(replayed[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "write the notes" } });
    expect(replayed.filter((u) => u.sessionUpdate === "tool_call").map((u) => (u.sessionUpdate === "tool_call" ? u.toolCallId : ""))).toEqual(["toolu_w1", "toolu_w2"]);
    const replayedEnd = replayed.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w1");
    expect(replayedEnd).toMatchObject({ status: "completed" });
    expect(replayedEnd?.sessionUpdate === "tool_call_update" ? replayedEnd.content?.[0] : undefined).toMatchObject({ type: "diff", newText: "one\n" });
    expect(replayed.filter((u) => u.sessionUpdate === "agent_message_chunk").at(-1)).toMatchObject({ content: { type: "text", text: "Wrote notes.txt twice." } });
  });
});

describe("rein acp: changes as an editor shows them", () => {
  test("an edit asks with the whole file before and after and the line it starts at; its update and a write over the file carry the same", async () => {
    const w = await newWorld();
    const path = join(w.cwd, "list.txt");
    await writeFile(path, "a\nb\nc\nd\ne\n");
    w.fake.script(
      { reply: [{ type: "tool_use", id: "toolu_r1", name: "read", input: { path: "list.txt" } }] },
      { reply: [{ type: "tool_use", id: "toolu_e1", name: "edit", input: { path: "list.txt", old_string: "c\nd", new_string: "C\nD" } }] },
      { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "list.txt", content: "whole\n" } }] },
      { reply: [{ type: "tool_use", id: "toolu_b1", name: "bash", input: { command: `mkdir built && touch ${w.cwd}/built/a` } }] },
      { reply: [{ type: "text", text: "Changed." }] },
    );
    const agent = startAgent(w, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "change the list" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(await readFile(path, "utf8")).toBe("whole\n");

    const edited = { type: "diff" as const, path, oldText: "a\nb\nc\nd\ne\n", newText: "a\nb\nC\nD\ne\n" };
    const written = { type: "diff" as const, path, oldText: "a\nb\nC\nD\ne\n", newText: "whole\n" };
    expect(agent.asks.map((a) => a.toolCall.toolCallId)).toEqual(["toolu_e1", "toolu_w1", "toolu_b1"]);
    const [editAsk, writeAsk, bashAsk] = agent.asks;
    // The buttons carry no absolute path; several rules are counted there and listed in the text.
    expect(editAsk!.options[1]!.name).toBe("Always allow edit(list.txt) in this session");
    const several = bashAsk!.options.find((o) => o.kind === "allow_always")!.name;
    expect(several).toMatch(/^Always allow these \d+ rules in this session$/);
    for (const ask of agent.asks) for (const option of ask.options) expect(option.name).not.toContain(w.cwd);
    const why = bashAsk!.toolCall.content?.find((c) => c.type === "content");
    expect(why?.type === "content" && why.content.type === "text" ? why.content.text : "").toContain("Always allow adds: ");
    expect(editAsk!.toolCall.content?.[0]).toEqual(edited);
    expect(editAsk!.toolCall.locations).toEqual([{ path, line: 3 }]);
    expect(writeAsk!.toolCall.content?.[0]).toEqual(written);
    expect(writeAsk!.toolCall.locations).toEqual([{ path, line: 1 }]);

    const updates = agent.updates.map((n) => n.update);
    const ended = (id: string) => updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id && u.status === "completed");
    const editEnd = ended("toolu_e1");
    expect(editEnd?.sessionUpdate === "tool_call_update" ? editEnd.content?.[0] : undefined).toEqual(edited);
    expect(editEnd?.sessionUpdate === "tool_call_update" ? editEnd.locations : undefined).toEqual([{ path, line: 3 }]);
    const writeEnd = ended("toolu_w1");
    expect(writeEnd?.sessionUpdate === "tool_call_update" ? writeEnd.content?.[0] : undefined).toEqual(written);
    const call = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_e1");
    expect(call?.sessionUpdate === "tool_call" ? call.locations : undefined).toEqual([{ path, line: 3 }]);
  });
});

describe("rein acp: bad input", () => {
  test("a line that is not JSON gets a parse error and the agent goes on; an unknown method gets method-not-found; bad params get invalid params", async () => {
    const w = await newWorld();
    const agent = startAgent(w);
    agent.send("{this is not json\n");
    const parseError = await agent.line((m) => (m.error as { code?: number } | undefined)?.code === -32700);
    expect(parseError.id).toBeNull();
    const init = await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    const unknown = await agent.conn.agent.request("rein/no_such_method", {}).then(
      () => undefined,
      (error: acp.RequestError) => error,
    );
    expect(unknown?.code).toBe(-32601);
    // params that do not fit the method: invalid params, naming the field
    agent.send('{"jsonrpc":"2.0","id":"raw-1","method":"session/new","params":{"mcpServers":[]}}\n');
    const invalid = await agent.line((m) => m.id === "raw-1");
    expect(invalid.error).toMatchObject({ code: -32602 });
    expect((invalid.error as { message: string }).message).toContain("cwd");
    // a relative cwd, or one that is no folder: invalid params naming cwd, not an internal error
    for (const cwd of ["some/folder", join(w.cwd, "no-such-folder")]) {
      const bad = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }).then(
        () => undefined,
        (error: acp.RequestError) => error,
      );
      expect(bad?.code).toBe(-32602);
      expect(bad?.message).toStartWith("Invalid params: cwd: ");
      expect(bad?.data).toEqual({ cwd });
    }
    // still answering
    const listed = await agent.conn.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions).toEqual([]);
  });

  test("a prompt for a session that does not exist is a session-not-found error", async () => {
    const w = await newWorld();
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const error = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }).then(
      () => undefined,
      (e: acp.RequestError) => e,
    );
    expect(error?.code).toBe(-32002);
    expect(error?.data).toEqual({ sessionId: "nope" });
    const load = await agent.conn.agent.request(acp.methods.agent.session.load, { sessionId: "nope", cwd: w.cwd, mcpServers: [] }).then(
      () => undefined,
      (e: acp.RequestError) => e,
    );
    expect(load?.code).toBe(-32002);
    expect(w.fake.requests).toHaveLength(0);
  });

  test("without a key, session/new and authenticate answer auth_required naming what to set", async () => {
    const w = await newWorld();
    const agent = startAgent(w, undefined, { ANTHROPIC_API_KEY: undefined });
    const init = await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(init.authMethods?.map((m) => m.id)).toEqual(["environment"]);
    const created = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] }).then(
      () => undefined,
      (e: acp.RequestError) => e,
    );
    expect(created?.code).toBe(-32000);
    expect(created?.message).toContain("ANTHROPIC_API_KEY");
    const auth = await agent.conn.agent.request(acp.methods.agent.authenticate, { methodId: "environment" }).then(
      () => undefined,
      (e: acp.RequestError) => e,
    );
    expect(auth?.code).toBe(-32000);
  });

  test("the client closing stdin mid-turn aborts the turn; the session stays and a new agent resumes it", async () => {
    const w = await newWorld();
    w.fake.script({ hang: true, afterText: "Working on it" }, { reply: [{ type: "text", text: "Resumed." }] });
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    void agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "start the work" }] }).catch(() => {});
    await agent.update((u) => u.sessionUpdate === "agent_message_chunk");
    agent.closeStdin();
    expect(await agent.exited).toBe(0);

    const second = startAgent(w);
    await second.conn.agent.request(acp.methods.agent.initialize, INIT);
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: w.cwd, mcpServers: [] });
    expect(second.updates[0]?.update).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "start the work" } });
    const resumed = await second.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go on" }] });
    expect(resumed.stopReason).toBe("end_turn");
    const sent = w.fake.requests.at(-1)!.body.messages as { role: string }[];
    expect(sent[0]).toMatchObject({ role: "user" });
    expect(JSON.stringify(sent)).toContain("start the work");
  });

  test("a running command's output is shown live; session/cancel mid-tool stops it and the prompt ends cancelled", async () => {
    const w = await newWorld();
    w.fake.script({ reply: [{ type: "tool_use", id: "toolu_b1", name: "bash", input: { command: "echo started; sleep 30" } }] });
    const agent = startAgent(w, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    await agent.conn.agent.request(acp.methods.agent.initialize, { ...INIT, clientCapabilities: { ...INIT.clientCapabilities, terminal: true } });
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const prompt = agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "run it" }] });
    // The command's output is shown while it runs (rein runs it, in its sandbox; not in the editor's terminal).
    const live = await agent.update((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_b1" && u.status === "in_progress");
    expect(live.sessionUpdate === "tool_call_update" ? live.content : undefined).toEqual([{ type: "content", content: { type: "text", text: "started\n" } }]);
    await agent.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    const end = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_b1" && u.status !== "in_progress");
    expect(end).toMatchObject({ status: "failed" });
    expect(agent.updates.find((n) => n.update.sessionUpdate === "tool_call")?.update).toMatchObject({ kind: "execute", title: "bash: echo started; sleep 30" });
    // The client offered its terminal; rein asked nothing of it.
    expect(agent.lines.filter((l) => l.includes('"terminal/'))).toEqual([]);
  });
});

describe("rein acp: modes", () => {
  test("the permission modes and primary agents are offered; plan mode refuses an edit without asking; an unknown mode is invalid params", async () => {
    const w = await newWorld();
    w.fake.script(
      { reply: [{ type: "tool_use", id: "toolu_p1", name: "write", input: { path: "plan.txt", content: "x" } }] },
      { reply: [{ type: "text", text: "Planned only." }] },
    );
    const agent = startAgent(w, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const created = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const ids = created.modes?.availableModes.map((m) => m.id) ?? [];
    expect(created.modes?.currentModeId).toBe("default");
    expect(ids).toEqual(expect.arrayContaining(["default", "plan", "accept-edits", "auto", "agent:build"]));
    // each mode once: the built-in plan agent is not listed beside plan mode
    const names = created.modes?.availableModes.map((m) => m.name.split(" ")[0]) ?? [];
    expect(new Set(names).size).toBe(names.length);
    expect(ids).not.toContain("agent:plan");
    const bad = await agent.conn.agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: "yolo" }).then(
      () => undefined,
      (e: acp.RequestError) => e,
    );
    expect(bad?.code).toBe(-32602);
    expect(bad?.message).toContain("plan");

    await agent.conn.agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: "plan" });
    expect(await agent.update((u) => u.sessionUpdate === "current_mode_update")).toEqual({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
    const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId: created.sessionId, prompt: [{ type: "text", text: "make a plan" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(agent.asks).toHaveLength(0);
    expect(await Bun.file(join(w.cwd, "plan.txt")).exists()).toBe(false);
    expect(agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_p1")).toMatchObject({ status: "failed" });
  });
});

describe("rein acp: the client's MCP servers", () => {
  test("a stdio server from session/new joins the session: its tool is offered, asked for and run", async () => {
    const w = await newWorld();
    const everything = join(import.meta.dir, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    w.fake.script(
      { reply: [{ type: "tool_use", id: "toolu_m1", name: "mcp__everything__echo", input: { message: "hi from the editor" } }] },
      { reply: [{ type: "text", text: "Echoed." }] },
    );
    const agent = startAgent(w, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    const init = await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, {
      cwd: w.cwd,
      mcpServers: [{ name: "everything", command: "node", args: [everything, "stdio"], env: [] }],
    });
    const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "echo" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(w.fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("mcp__everything__echo");
    expect(agent.asks.map((a) => a.toolCall.toolCallId)).toEqual(["toolu_m1"]);
    const end = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_m1" && u.status === "completed");
    expect(JSON.stringify(end)).toContain("hi from the editor");
  });
});

describe("rein acp: slash commands", () => {
  test("the skills a user can invoke are announced; a prompt /name runs the skill", async () => {
    const w = await newWorld();
    await mkdir(join(w.home, ".claude/skills/house-style"), { recursive: true });
    await writeFile(join(w.home, ".claude/skills/house-style/SKILL.md"), "---\nname: house-style\ndescription: How this team writes code\n---\nUse tabs for $ARGUMENTS.\n");
    w.fake.script({ reply: [{ type: "text", text: "Tabs it is." }] });
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const announced = await agent.update((u) => u.sessionUpdate === "available_commands_update");
    expect(announced.sessionUpdate === "available_commands_update" ? announced.availableCommands : []).toContainEqual(expect.objectContaining({ name: "house-style", description: "How this team writes code" }));
    await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/house-style the parser" }] });
    expect(JSON.stringify(w.fake.requests[0]!.body.messages)).toContain("Use tabs for the parser.");
  });

  test("the MCP servers' prompts follow in a second update once the servers connect, with the skills again", async () => {
    const w = await newWorld();
    await mkdir(join(w.home, ".claude/skills/house-style"), { recursive: true });
    await writeFile(join(w.home, ".claude/skills/house-style/SKILL.md"), "---\nname: house-style\ndescription: How this team writes code\n---\nUse tabs.\n");
    const rogue = join(import.meta.dir, "../unit/mcp/fixtures/rogue-server.ts");
    const agent = startAgent(w);
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [{ name: "rogue", command: process.execPath, args: [rogue], env: [] }] });
    const names = (u: acp.SessionUpdate) => (u.sessionUpdate === "available_commands_update" ? u.availableCommands.map((c) => c.name) : []);
    const first = await agent.update((u) => u.sessionUpdate === "available_commands_update");
    expect(names(first)).toContain("house-style");
    const withPrompts = await agent.update((u) => names(u).includes("mcp__rogue__picture"));
    expect(names(withPrompts)).toContain("house-style");
    expect(withPrompts.sessionUpdate === "available_commands_update" && withPrompts.availableCommands.find((c) => c.name === "mcp__rogue__picture")?.description).toBe("Shows a picture.");
  });
});
