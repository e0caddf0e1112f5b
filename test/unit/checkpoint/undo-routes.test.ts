// The server's undo routes on a real hub: a session whose bash changed a file, undone and redone
// over HTTP, with its checkpoints listed. Real git and files, the fake model.
import { beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../../src/server/app.ts";
import { SessionHub } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import bash from "../../../tools/bash.ts";
import { ALLOW_ALL, type Kit, useKit } from "../../support/session-kit.ts";

const TOKEN = "a-test-token-of-exactly-32-chars";
const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

test("POST undo puts the file back and cuts the conversation; redo brings both back; GET checkpoints lists the turn", async () => {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  writeFileSync(join(cwd, "a.txt"), "one\n");
  const options = () => ({ ...kit.options({ tools: [bash], rules: ALLOW_ALL }), expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }), checkpoints: { dir: join(kit.dir.path, "checkpoints") } });
  const hub = new SessionHub({ store: kit.store, optionsFor: () => ({ cwd, options: options() }), optionsForStored: options });
  const app = createApp({ hub, token: TOKEN, origins: [], hosts: () => ["localhost"], version: "0.0.0-test", openapi: OPENAPI });
  const call = (method: string, path: string, body?: unknown) =>
    app.request(path, { method, headers: { authorization: `Bearer ${TOKEN}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const { id } = (await (await call("POST", "/sessions", {})).json()) as { id: string };
  kit.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "echo two > a.txt" } }] }, { reply: [{ type: "text", text: "done" }] });
  expect((await call("POST", `/sessions/${id}/prompt?wait=1`, { text: "change a" })).status).toBe(200);

  const listed = (await (await call("GET", `/sessions/${id}/checkpoints`)).json()) as { checkpoints: { n: number; changed: unknown[] }[] };
  expect(listed.checkpoints.map((c) => [c.n, c.changed])).toEqual([[1, [{ status: "modified", path: "a.txt" }]]]);

  const undone = await call("POST", `/sessions/${id}/undo`, {});
  expect(undone.status).toBe(200);
  expect(await undone.json()).toMatchObject({ type: "done", messages: 4, code: { files: ["a.txt"] } });
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
  expect((await call("POST", `/sessions/${id}/undo`, { part: "code" })).status).toBe(409);

  const redone = await call("POST", `/sessions/${id}/redo`);
  expect(redone.status).toBe(200);
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");
  expect((await call("POST", `/sessions/${id}/undo`, { turns: 0 })).status).toBe(400);
});
