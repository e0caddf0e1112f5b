// SessionStart and SessionEnd once per session lifetime: a session ended twice ends once, a session
// replacing another starts as "clear", and the server ends the sessions it drives when one is
// deleted over HTTP or the server shuts down (with a hook's stop shown in the run's result).
import { expect, test } from "bun:test";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../../src/server/app.ts";
import { SessionHub } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";
import { Session } from "../../../src/session/session.ts";
import { useKit } from "../../support/session-kit.ts";
import { hookedOptions, recorder, say, script } from "./hook-kit.ts";

const kit = useKit();
let logs = 0;
const newLog = () => join(kit().dir.path, `lifecycle-${++logs}.log`);
const read = (log: string) => (existsSync(log) ? readFileSync(log, "utf8") : "");
const lifecycle = (log: string) => recorder(log, ["SessionStart", "source"], ["SessionEnd", "reason"]);

test("a session is started by its first prompt and ended once, however often a front end ends it", async () => {
  const log = newLog();
  const { options } = hookedOptions(kit(), lifecycle(log));
  const session = Session.create(kit().dir.path, options);
  await session.end("other"); // never started: nothing to end
  kit().fake.script(say("one"), say("two"));
  await session.prompt("first");
  await session.prompt("second");
  await session.end("other");
  await session.end("prompt_input_exit");
  expect(read(log)).toBe("SessionStart:startup SessionEnd:other ");
});

test("a session that replaces another (/clear) starts as clear; a stored one opened again as resume", async () => {
  const log = newLog();
  const { options } = hookedOptions(kit(), lifecycle(log));
  const cleared = Session.create(kit().dir.path, { ...options, startSource: "clear" });
  kit().fake.script(say("fresh"), say("again"));
  await cleared.prompt("hi");
  await cleared.end("clear");
  await Session.open(kit().store.getSession(cleared.id)!, options).prompt("back");
  expect(read(log)).toBe("SessionStart:clear SessionEnd:clear SessionStart:resume ");
});

function server(log: string, extra: Parameters<typeof hookedOptions>[1] = {}) {
  const { options } = hookedOptions(kit(), { ...lifecycle(log), ...extra });
  const hub = new SessionHub({ store: kit().store, optionsFor: () => ({ cwd: kit().dir.path, options }), optionsForStored: () => options });
  const app = createApp({ hub, token: "t".repeat(32), origins: [], hosts: () => ["localhost"], version: "0.0.0-test", openapi: OPENAPI, heartbeatMs: 1000 });
  const call = (method: string, path: string, body?: unknown) =>
    app.request(path, { method, headers: { authorization: `Bearer ${"t".repeat(32)}` }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const newSession = async () => ((await (await call("POST", "/sessions", {})).json()) as { id: string }).id;
  return { hub, call, newSession };
}

test("the server ends a session for its hooks when it is deleted, and the others when it shuts down", async () => {
  const log = newLog();
  const { hub, call, newSession } = server(log);
  const [deleted, kept] = [await newSession(), await newSession()];
  await newSession(); // one no prompt starts: it is never ended either
  kit().fake.script(say("one"), say("two"));
  expect((await call("POST", `/sessions/${deleted}/prompt?wait=1`, { text: "hi" })).status).toBe(200);
  expect((await call("POST", `/sessions/${kept}/prompt?wait=1`, { text: "hi" })).status).toBe(200);
  expect(read(log)).toBe("SessionStart:startup SessionStart:startup ");

  expect((await call("DELETE", `/sessions/${deleted}`)).status).toBe(200);
  expect(read(log)).toBe("SessionStart:startup SessionStart:startup SessionEnd:other ");
  await hub.shutdown();
  expect(read(log)).toBe("SessionStart:startup SessionStart:startup SessionEnd:other SessionEnd:other ");
});

test("over the server, a hook's continue:false ends the run as stopped, with the reason in the result", async () => {
  const log = newLog();
  const stop = script(kit(), `echo '{"continue":false,"stopReason":"frozen until Monday"}'`);
  const { call, newSession } = server(log, { UserPromptSubmit: [{ hooks: [{ type: "command", command: stop }] }] });
  const id = await newSession();
  const res = await call("POST", `/sessions/${id}/prompt?wait=1`, { text: "deploy" });
  expect(await res.json()).toMatchObject({ type: "result", status: "stopped", error: "stopped by a UserPromptSubmit hook: frozen until Monday" });
  expect(kit().fake.requests).toHaveLength(0);
});
