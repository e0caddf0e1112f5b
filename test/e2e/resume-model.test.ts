// The model a resumed session (-c, -r) runs with, in print mode against the fake model: an explicit
// --model wins, else the model the session was switched to with /model (made here with the
// session's own setModel, as /model does), else the configured one.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import { Store } from "../../src/session/store.ts";
import { testSessionOptions } from "../support/session-kit.ts";
import { text, world, type World } from "./harness.ts";

const modelOf = (w: World) => (w.fake.requests.at(-1)!.body as { model: string }).model;

/** Switches the session to `model` as the terminal's /model does; returns the session's id. */
function switchModel(w: World, model: string): string {
  const { store } = Store.open(join(w.dataDir, "rein.db"));
  try {
    const [row] = store.listSessions({ limit: 1 });
    Session.open(row!, testSessionOptions({ store, baseURL: w.fake.url, dataDir: w.dataDir })).setModel(model);
    return row!.id;
  } finally {
    store.close();
  }
}

test.concurrent("-c and -r go on with the model chosen by /model; an explicit --model wins for that run only", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("one")] }, { reply: [text("two")] }, { reply: [text("three")] }, { reply: [text("four")] }, { reply: [text("five")] });
  expect((await w.run(["-p", "start"])).code).toBe(0);
  expect(modelOf(w)).toBe("claude-sonnet-5-5");
  const id = switchModel(w, "claude-haiku-4-5");

  const continued = await w.run(["-c", "-p", "next", "--output-format", "json"]);
  expect(continued.code).toBe(0);
  expect(modelOf(w)).toBe("claude-haiku-4-5");
  expect(JSON.parse(continued.stdout)).toMatchObject({ model: "claude-haiku-4-5" });
  expect((await w.run(["-r", id, "-p", "again"])).code).toBe(0);
  expect(modelOf(w)).toBe("claude-haiku-4-5");
  expect((await w.run(["-c", "-m", "claude-opus-4-5", "-p", "explicit"])).code).toBe(0);
  expect(modelOf(w)).toBe("claude-opus-4-5");
  expect((await w.run(["-c", "-p", "after"])).code).toBe(0);
  expect(modelOf(w)).toBe("claude-haiku-4-5");
}, 60_000);

test.concurrent("a session never switched resumes with the configured model, also when the config changed since", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("one")] }, { reply: [text("two")] });
  expect((await w.run(["-p", "start"])).code).toBe(0);
  expect(modelOf(w)).toBe("claude-sonnet-5-5");
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ model: "claude-haiku-4-5" }));
  expect((await w.run(["-c", "-p", "next"])).code).toBe(0);
  expect(modelOf(w)).toBe("claude-haiku-4-5");
}, 60_000);

test.concurrent("a chosen model that cannot be used now is said in one line, and the configured one is used", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("one")] }, { reply: [text("two")] });
  expect((await w.run(["-p", "start"])).code).toBe(0);
  const id = switchModel(w, "nosuch/model-x");
  const r = await w.run(["-c", "-p", "next"]);
  expect(r.code).toBe(0);
  expect(modelOf(w)).toBe("claude-sonnet-5-5");
  expect(r.stderr).toContain(`session ${id} was switched to nosuch/model-x with /model, which cannot be used now (`);
  expect(r.stderr).toContain("it goes on with claude-sonnet-5-5");
}, 60_000);
