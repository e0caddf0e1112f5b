// What an ACP client sees of a file-changing call and of a permission ask, and the editor's buffers
// as rein's file access: the whole-file change of an edit or write (file-change.ts), the call's
// kind, locations and content (tool-view.ts), the ask's buttons and explanation (permission.ts),
// the client's params and answers checked at the boundary (wire.ts), and fs/read_text_file and
// fs/write_text_file over rein's real JSON-RPC connection (client-files.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clientFiles } from "../../../src/acp/client-files.ts";
import { fileChange, pathOf, readBefore } from "../../../src/acp/file-change.ts";
import { explanation, permissionOptions } from "../../../src/acp/permission.ts";
import { rpcConnection } from "../../../src/acp/rpc.ts";
import { toolContent, toolKind, toolLocations } from "../../../src/acp/tool-view.ts";
import { ANSWERS, answerOf, PARAMS, paramsOf } from "../../../src/acp/wire.ts";
import { readAllText, type FileAccess } from "../../../src/sdk.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-acp-files-");
});
afterAll(() => dir.remove());

describe("the whole-file change of an edit or a write", () => {
  const cwd = "/work/project";

  test("an edit shows the file before and after, and the line the change starts at", () => {
    const before = "one\ntwo\nthree\nfour\n";
    const change = fileChange("edit", { path: "notes.txt", old_string: "three", new_string: "THREE" }, before, cwd);
    expect(change).toEqual({ diff: { type: "diff", path: "/work/project/notes.txt", oldText: before, newText: "one\ntwo\nTHREE\nfour\n" }, line: 3 });
  });

  test("replace_all changes every match; without it, an ambiguous or missing match is no change (the edit will fail)", () => {
    const before = "a x a x a\n";
    expect(fileChange("edit", { path: "/f", old_string: "a", new_string: "b", replace_all: true }, before, cwd)?.diff.newText).toBe("b x b x b\n");
    expect(fileChange("edit", { path: "/f", old_string: "a", new_string: "b" }, before, cwd)).toBeUndefined();
    expect(fileChange("edit", { path: "/f", old_string: "zzz", new_string: "b" }, before, cwd)).toBeUndefined();
    expect(fileChange("edit", { path: "/f", old_string: "", new_string: "b" }, before, cwd)).toBeUndefined();
  });

  test("a CRLF file is matched as LF and stays CRLF", () => {
    const change = fileChange("edit", { path: "/f", old_string: "b\nc", new_string: "B\nC" }, "a\r\nb\r\nc\r\n", cwd);
    expect(change).toEqual({ diff: { type: "diff", path: "/f", oldText: "a\r\nb\r\nc\r\n", newText: "a\r\nB\r\nC\r\n" }, line: 2 });
  });

  test("a write over a file, a write of a new file (oldText null), and what cannot be known", () => {
    expect(fileChange("write", { path: "/f", content: "new" }, "old", cwd)).toEqual({ diff: { type: "diff", path: "/f", oldText: "old", newText: "new" }, line: 1 });
    expect(fileChange("write", { path: "/f", content: "new" }, null, cwd)?.diff.oldText).toBeNull();
    expect(fileChange("write", { path: "/f", content: "new" }, undefined, cwd)).toBeUndefined(); // the file could not be read
    expect(fileChange("write", { path: "/f" }, "old", cwd)).toBeUndefined();
    expect(fileChange("edit", { path: "/f", old_string: "a", new_string: "b" }, null, cwd)).toBeUndefined(); // editing no file
    expect(fileChange("read", { path: "/f" }, "text", cwd)).toBeUndefined();
    expect(pathOf({ path: "" }, cwd)).toBeUndefined();
    expect(pathOf({ path: "../up.txt" }, cwd)).toBe("/work/up.txt");
  });

  test("before: the disk's text, null for no file, undefined for what cannot be read; the editor's buffer when it serves files", async () => {
    const file = join(dir.path, "before.txt");
    writeFileSync(file, "on disk\n");
    expect(readBefore(file, undefined)).toBe("on disk\n");
    expect(readBefore(join(dir.path, "none.txt"), undefined)).toBeNull();
    expect(readBefore(dir.path, undefined)).toBeUndefined(); // a folder
    const buffers: FileAccess = {
      readText: async function* (path) {
        if (path !== file) throw new Error("no buffer");
        yield "in the editor, ";
        yield "unsaved\n";
      },
      writeText: async () => {},
    };
    expect(await readBefore(file, buffers)).toBe("in the editor, unsaved\n");
    // the editor has no such file: a missing one is null, one on the disk unknown (its buffer may differ)
    expect(await readBefore(join(dir.path, "none.txt"), buffers)).toBeNull();
    expect(await readBefore(join(dir.path, "other.txt"), buffers)).toBeNull();
    writeFileSync(join(dir.path, "other.txt"), "x");
    expect(await readBefore(join(dir.path, "other.txt"), buffers)).toBeUndefined();
  });
});

describe("a call as the client shows it", () => {
  test("kinds: reading, searching, editing, running, fetching, thinking; anything else is other", () => {
    expect(["read", "list", "glob", "grep", "edit", "write", "bash", "webfetch", "todo", "mcp__x__y"].map(toolKind)).toEqual(["read", "read", "search", "search", "edit", "edit", "execute", "fetch", "think", "other"]);
  });

  test("locations are absolute, with the line of a known change", () => {
    expect(toolLocations({ path: "src/a.ts" }, "/p")).toEqual([{ path: "/p/src/a.ts" }]);
    const change = fileChange("write", { path: "/p/b.ts", content: "x" }, null, "/p")!;
    expect(toolLocations({ path: "/p/b.ts" }, "/p", change)).toEqual([{ path: "/p/b.ts", line: 1 }]);
    expect(toolLocations({ command: "ls" }, "/p")).toEqual([]);
  });

  test("content: the whole-file diff when known, else the call's snippets, then the output; a failed call shows no diff", () => {
    const change = fileChange("edit", { path: "a.ts", old_string: "1", new_string: "2" }, "x = 1\n", "/p")!;
    expect(toolContent("edit", { path: "a.ts", old_string: "1", new_string: "2" }, "edited", false, "/p", change)).toEqual([change.diff, { type: "content", content: { type: "text", text: "edited" } }]);
    expect(toolContent("edit", { path: "a.ts", old_string: "1", new_string: "2" }, "", false, "/p")).toEqual([{ type: "diff", path: "/p/a.ts", oldText: "1", newText: "2" }]);
    expect(toolContent("write", { path: "a.ts", content: "all" }, "", false, "/p")).toEqual([{ type: "diff", path: "/p/a.ts", oldText: null, newText: "all" }]);
    expect(toolContent("edit", { path: "a.ts", old_string: "1", new_string: "2" }, "no match", true, "/p", change)).toEqual([{ type: "content", content: { type: "text", text: "no match" } }]);
    expect(toolContent("bash", { command: "true" }, "", false, "/p")).toEqual([]);
  });
});

describe("a permission ask as session/request_permission", () => {
  const ask = (requests: { permission: string; pattern: string; always: string[]; opaque?: boolean; reason?: string; fixed?: { action: "ask"; reason: string } }[], reason?: string) => ({
    type: "permission_ask" as const,
    id: "ask_1",
    tool_use_id: "toolu_1",
    tool: "bash",
    requests,
    ...(reason ? { reason } : {}),
    session_id: "s_1",
    seq: 3,
  });

  test("one rule to always allow is named as the person sees it: relative in the workspace, ~ at home", () => {
    const inWorkspace = ask([{ permission: "edit", pattern: "/p/src/a.ts", always: ["/p/src/*"] }]);
    expect(permissionOptions(inWorkspace, "/p", "/home/me").map((o) => [o.optionId, o.name, o.kind])).toEqual([
      ["allow_once", "Allow once", "allow_once"],
      ["allow_always", "Always allow edit(src/*) in this session", "allow_always"],
      ["reject_once", "Reject", "reject_once"],
    ]);
    const atHome = ask([{ permission: "read", pattern: "/home/me/.notes", always: ["/home/me/.notes"] }]);
    expect(permissionOptions(atHome, "/p", "/home/me")[1]!.name).toBe("Always allow read(~/.notes) in this session");
  });

  test("several rules are counted on the button and listed in the explanation; nothing to always allow, no such button", () => {
    const two = ask([
      { permission: "bash", pattern: "git push", always: ["git push *"] },
      { permission: "bash", pattern: "rm -rf build", always: ["rm *"], fixed: { action: "ask", reason: "it removes files" } },
    ]);
    expect(permissionOptions(two, "/p", "/home/me")[1]!.name).toBe("Always allow these 2 rules in this session");
    expect(explanation(two, "/p", "/home/me")).toBe("bash(git push) asks: no rule allows it\nbash(rm -rf build) asks: it removes files\nAlways allow adds: bash(git push *), bash(rm *)");
    const opaque = ask([{ permission: "bash", pattern: "eval $X", always: [], opaque: true }], "the session is tainted");
    expect(permissionOptions(opaque, "/p", "/home/me").map((o) => o.optionId)).toEqual(["allow_once", "reject_once"]);
    expect(explanation(opaque, "/p", "/home/me")).toBe("bash(eval $X) asks: cannot be checked statically\nthe session is tainted");
  });
});

describe("the client's messages at the boundary", () => {
  test("params are checked and what rein does not read passes through; a bad one names its field", () => {
    expect(paramsOf(PARAMS.prompt, { sessionId: "s", prompt: [{ type: "text", text: "hi" }], _meta: { x: 1 } })).toEqual({ sessionId: "s", prompt: [{ type: "text", text: "hi" }], _meta: { x: 1 } });
    expect(() => paramsOf(PARAMS.newSession, { cwd: 3, mcpServers: [] })).toThrow(/^Invalid params: cwd: /);
    expect(() => paramsOf(PARAMS.prompt, { sessionId: "s", prompt: [{ type: "video" }] })).toThrow(/^Invalid params: prompt\.0/);
    expect(paramsOf(PARAMS.listSessions, undefined)).toEqual({});
  });

  test("a malformed answer to rein's own request fails like a failed request", () => {
    expect(answerOf(ANSWERS.requestPermission, { outcome: { outcome: "selected", optionId: "allow_once" } }).outcome).toEqual({ outcome: "selected", optionId: "allow_once" });
    expect(() => answerOf(ANSWERS.requestPermission, { outcome: { outcome: "maybe" } })).toThrow(/^the client's answer is malformed: /);
    expect(() => answerOf(ANSWERS.readTextFile, {})).toThrow(/malformed/);
  });
});

describe("the editor's buffers as rein's file access", () => {
  /** rein's connection to a client that serves files from a map, answering over a real stream. */
  function editorWith(buffers: Map<string, string>) {
    const toRein = new TransformStream<Uint8Array, Uint8Array>();
    const writer = toRein.writable.getWriter();
    const asked: { method: string; params: Record<string, unknown> }[] = [];
    const { peer } = rpcConnection(toRein.readable, (lines) => {
      for (const line of lines.trim().split("\n")) {
        const message = JSON.parse(line) as { id: number; method: string; params: Record<string, unknown> };
        asked.push({ method: message.method, params: message.params });
        const path = String(message.params.path);
        const reply =
          message.method === "fs/read_text_file"
            ? buffers.has(path)
              ? { result: { content: buffers.get(path) } }
              : { error: { code: -32002, message: `no buffer for ${path}` } }
            : (buffers.set(path, String(message.params.content)), { result: {} });
        void writer.write(new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, ...reply })}\n`));
      }
    }, { requests: {}, notifications: {} });
    return { peer, asked };
  }

  test("read and write go to the editor, bound to its session id; a failed read is an error for the tool", async () => {
    const buffers = new Map([["/p/a.ts", "unsaved text"]]);
    const { peer, asked } = editorWith(buffers);
    const access = clientFiles(peer, { fs: { readTextFile: true, writeTextFile: true } }, () => "sess_9")!;
    expect(await readAllText(access, "/p/a.ts")).toBe("unsaved text");
    await access.writeText("/p/b.ts", "written");
    expect(buffers.get("/p/b.ts")).toBe("written");
    expect(asked).toEqual([
      { method: "fs/read_text_file", params: { sessionId: "sess_9", path: "/p/a.ts" } },
      { method: "fs/write_text_file", params: { sessionId: "sess_9", path: "/p/b.ts", content: "written" } },
    ]);
    await expect(readAllText(access, "/p/none.ts")).rejects.toThrow("no buffer for /p/none.ts");
  });

  test("what the client does not offer stays on the disk; offering nothing is no file access at all", async () => {
    const { peer, asked } = editorWith(new Map());
    const file = join(dir.path, "disk.txt");
    writeFileSync(file, "from the disk");
    const readOnly = clientFiles(peer, { fs: { readTextFile: false, writeTextFile: true } }, () => "s")!;
    expect(await readAllText(readOnly, file)).toBe("from the disk");
    const writeLess = clientFiles(peer, { fs: { readTextFile: true } }, () => "s")!;
    await writeLess.writeText(file, "to the disk");
    expect(readFileSync(file, "utf8")).toBe("to the disk");
    expect(asked).toEqual([]);
    expect(clientFiles(peer, undefined, () => "s")).toBeUndefined();
    expect(clientFiles(peer, { fs: {} }, () => "s")).toBeUndefined();
  });
});
