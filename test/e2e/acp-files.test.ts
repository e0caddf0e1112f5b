// `rein acp` with a client that offers fs/read_text_file and fs/write_text_file: read, write and
// edit see and change the editor's buffers (which differ from the disk), after the same permission
// and sensitive-path checks as ever.
import { afterEach, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { writeFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { newWorld, startAgent, stopAgents, type ClientFiles } from "./acp-client.ts";
import { resultText, toolResultsOf } from "./harness.ts";

afterEach(stopAgents);

const OFFER_FILES: acp.InitializeRequest = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } };

/** An editor holding unsaved buffers: reads come from a buffer when one is open, writes go to buffers only. */
function editor(buffers: Map<string, string>) {
  const reads: acp.ReadTextFileRequest[] = [];
  const writes: acp.WriteTextFileRequest[] = [];
  const files: ClientFiles = {
    read: (request) => {
      reads.push(request);
      const text = buffers.get(request.path);
      if (text === undefined) throw acp.RequestError.resourceNotFound(request.path);
      return text;
    },
    write: (request) => {
      writes.push(request);
      buffers.set(request.path, request.content);
    },
  };
  return { files, reads, writes };
}

test("read and edit go through the editor's unsaved buffer; the disk is left alone; asks and sensitive paths are as ever", async () => {
  const w = await newWorld();
  const notes = join(w.cwd, "notes.txt");
  const key = join(w.home, ".ssh/id_rsa");
  await writeFile(notes, "saved on disk\n");
  await mkdir(join(w.home, ".ssh"), { recursive: true });
  await writeFile(key, "secret key\n");
  const { files, reads, writes } = editor(new Map([[notes, "unsaved in the editor\n"], [key, "secret key\n"]]));
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_k1", name: "read", input: { path: key } }] },
    { reply: [{ type: "tool_use", id: "toolu_r1", name: "read", input: { path: "notes.txt" } }] },
    { reply: [{ type: "tool_use", id: "toolu_e1", name: "edit", input: { path: "notes.txt", old_string: "unsaved in", new_string: "edited through" } }] },
    { reply: [{ type: "text", text: "Edited." }] },
  );
  const agent = startAgent(w, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }), {}, files);
  await agent.conn.agent.request(acp.methods.agent.initialize, OFFER_FILES);
  const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
  const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "fix the notes" }] });
  expect(done.stopReason).toBe("end_turn");

  // The credential was refused before any access: the editor was never asked for it.
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).not.toContain("secret key");
  expect(reads.map((r) => r.path)).not.toContain(key);
  // The model read the buffer, not the disk.
  const read = resultText(toolResultsOf(w.fake.requests[2]).at(-1));
  expect(read).toContain("unsaved in the editor");
  expect(read).not.toContain("saved on disk");
  expect(reads.every((r) => r.sessionId === sessionId && r.path === notes)).toBe(true);
  // The edit was asked for (reading inside the workspace is not), then written through the editor.
  expect(agent.asks.map((a) => a.toolCall.toolCallId)).toEqual(["toolu_e1"]);
  expect(writes).toEqual([{ sessionId, path: notes, content: "edited through the editor\n" }]);
  expect(resultText(toolResultsOf(w.fake.requests[3]).at(-1))).toContain(`Edited ${notes}: replaced 1 occurrence.`);
  expect(await readFile(notes, "utf8")).toBe("saved on disk\n");
  const end = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_e1" && u.status === "completed");
  expect(end?.sessionUpdate === "tool_call_update" ? end.content?.[0] : undefined).toEqual({ type: "diff", path: notes, oldText: "unsaved in the editor\n", newText: "edited through the editor\n" });
  // The permission card showed the same whole-buffer change, not the disk's text.
  expect(agent.asks[0]!.toolCall.content?.[0]).toEqual({ type: "diff", path: notes, oldText: "unsaved in the editor\n", newText: "edited through the editor\n" });
});

test("the editor changing its buffer after the read makes the edit ask for a fresh read; write creates a file through the editor", async () => {
  const w = await newWorld();
  const notes = join(w.cwd, "notes.txt");
  const fresh = join(w.cwd, "fresh.txt");
  await writeFile(notes, "one\n");
  const buffers = new Map([[notes, "one\n"]]);
  const { files, writes } = editor(buffers);
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_r1", name: "read", input: { path: "notes.txt" } }] },
    { reply: [{ type: "tool_use", id: "toolu_e1", name: "edit", input: { path: "notes.txt", old_string: "one", new_string: "two" } }] },
    { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "fresh.txt", content: "new file\n" } }] },
    { reply: [{ type: "text", text: "Done." }] },
  );
  const agent = startAgent(
    w,
    (ask) => {
      // The person types in the buffer while rein waits for the answer.
      if (ask.toolCall.toolCallId === "toolu_e1") buffers.set(notes, "one, typed since\n");
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    },
    {},
    {
      ...files,
      write: (request) => {
        files.write(request);
        writeFileSync(request.path, request.content); // an editor that saves what it is sent
      },
    },
  );
  await agent.conn.agent.request(acp.methods.agent.initialize, OFFER_FILES);
  const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
  await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
  const edit = toolResultsOf(w.fake.requests[2]).at(-1)!;
  expect(edit.is_error).toBe(true);
  expect(resultText(edit)).toContain("Read it again");
  expect(buffers.get(notes)).toBe("one, typed since\n");
  expect(writes.map((r) => r.path)).toEqual([fresh]);
  expect(resultText(toolResultsOf(w.fake.requests[3]).at(-1))).toContain(`to ${fresh}: created a new file`);
});

test("an editor that keeps a new file in an unsaved buffer: write reports it created, not failed, and the buffer holds it", async () => {
  const w = await newWorld();
  const fresh = join(w.cwd, "fresh.txt");
  const buffers = new Map<string, string>();
  const { files, writes } = editor(buffers); // writes go to buffers only: the disk never sees the file
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "fresh.txt", content: "kept unsaved\n" } }] },
    { reply: [{ type: "text", text: "Written." }] },
  );
  const agent = startAgent(w, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }), {}, files);
  await agent.conn.agent.request(acp.methods.agent.initialize, OFFER_FILES);
  const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
  const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write it" }] });
  expect(done.stopReason).toBe("end_turn");
  expect(writes).toEqual([{ sessionId, path: fresh, content: "kept unsaved\n" }]);
  expect(buffers.get(fresh)).toBe("kept unsaved\n");
  expect(await Bun.file(fresh).exists()).toBe(false);
  const result = toolResultsOf(w.fake.requests[1]).at(-1)!;
  expect(result.is_error).toBeUndefined();
  expect(resultText(result)).toContain(`to ${fresh}: created a new file`);
  const end = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_w1" && u.status !== "in_progress");
  expect(end).toMatchObject({ status: "completed" });
});
