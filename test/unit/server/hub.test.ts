// The SessionHub on its own, over a real store and the fake model: which sessions it unloads when
// idle (by an injected clock), which it never lets go of, a prompt refused while shutting down,
// trash and purge, and the parameters it keeps with a session.
import { expect, test } from "bun:test";
import { ApiError } from "../../../src/server/errors.ts";
import { SessionHub, storedParams, type HubDeps } from "../../../src/server/hub.ts";
import { Session } from "../../../src/session/session.ts";
import { useKit } from "../../support/session-kit.ts";

const kit = useKit();

function hub(over: Partial<HubDeps> & { clock?: { t: number } } = {}): SessionHub {
  const k = kit();
  const clock = over.clock;
  return new SessionHub({
    store: k.store,
    optionsFor: () => ({ cwd: k.dir.path, options: k.options() }),
    optionsForStored: () => k.options(),
    ...(clock ? { now: () => clock.t } : {}),
    ...over,
  });
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });

test("a session idle for idleMs is unloaded and opened again on next use, with its conversation", async () => {
  const clock = { t: 1_000_000 };
  const h = hub({ idleMs: 60_000, clock });
  const a = h.create({});
  kit().fake.script(say("hello back"));
  await h.prompt(a.id, "hello");
  const b = h.create({});
  clock.t += 30_000;
  h.get(b.id); // b is asked for: its idle time starts again
  clock.t += 30_000;
  expect(await h.unloadIdle()).toEqual([a.id]);
  const reopened = h.get(a.id);
  expect(reopened).not.toBe(a);
  expect(reopened.history().map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(h.get(b.id)).toBe(b);
  await h.shutdown(1000);
});

test("a session a stream follows is not unloaded; once the stream leaves its idle time counts from then", async () => {
  const clock = { t: 5_000_000 };
  const h = hub({ idleMs: 1000, clock });
  const s = h.create({});
  const off = h.events(s.id).subscribe(() => {});
  clock.t += 10_000;
  expect(await h.unloadIdle()).toEqual([]);
  off();
  expect(await h.unloadIdle()).toEqual([]);
  clock.t += 1000;
  expect(await h.unloadIdle()).toEqual([s.id]);
  await h.shutdown(1000);
});

test("without idleMs nothing is ever unloaded", async () => {
  const clock = { t: 0 };
  const h = hub({ clock });
  const s = h.create({});
  clock.t += 365 * 24 * 3600_000;
  expect(await h.unloadIdle()).toEqual([]);
  expect(h.get(s.id)).toBe(s);
  await h.shutdown(1000);
});

test("an adopted session (the terminal's) is served as the same object, never unloaded, and its stream follows a new object handed over", async () => {
  const clock = { t: 0 };
  const h = hub({ idleMs: 10, clock });
  const first = Session.create(kit().dir.path, kit().options());
  h.adopt(first);
  expect(h.get(first.id)).toBe(first);
  const seen: string[] = [];
  const off = h.events(first.id).subscribe((e) => seen.push(`${e.type}`));
  // the terminal reopens its session (a Tab to another agent): the same id, a new object
  const second = Session.open(kit().store.getSession(first.id)!, kit().options());
  h.adopt(second);
  kit().fake.script(say("from the new object"));
  await second.prompt("hi");
  expect(seen).toContain("result");
  off();
  clock.t += 1000;
  expect(await h.unloadIdle()).toEqual([]);
  expect(h.get(first.id)).toBe(second);
  await h.shutdown(1000);
});

test("after shutdown a prompt is refused as busy, saying the server is shutting down", async () => {
  const h = hub();
  const s = h.create({});
  await h.shutdown(1000);
  const error = apiError(() => h.prompt(s.id, "hi"));
  expect([error.code, error.message]).toEqual(["busy", "the server is shutting down"]);
});

test("a stored session whose options cannot be made is session_unavailable, with the reason", async () => {
  const made = hub().create({});
  const broken = hub({
    optionsForStored: () => {
      throw new Error("config error in /p/.rein/config.json: bad model");
    },
  });
  const error = apiError(() => broken.get(made.id));
  expect(error.code).toBe("session_unavailable");
  expect(error.message).toBe(`session ${made.id} cannot be opened: config error in /p/.rein/config.json: bad model`);
});

test("abort: an idle session is not aborted (false); an unknown one is not_found", async () => {
  const h = hub();
  const s = h.create({});
  expect(h.abort(s.id)).toBe(false);
  expect(apiError(() => h.abort("s_missing")).code).toBe("not_found");
  await h.shutdown(1000);
});

test("remove moves to the trash (restorable, gone from the API) and ends its watchers; purge deletes the rows", async () => {
  const h = hub();
  const trashed = h.create({});
  const purged = h.create({});
  let ended = 0;
  h.onRemoved(trashed.id, () => ended++);
  const stopped = h.onRemoved(trashed.id, () => ended++);
  stopped();
  const source = h.events(trashed.id);
  expect(source.exists()).toBe(true);
  await h.remove(trashed.id);
  expect(ended).toBe(1);
  expect(source.exists()).toBe(false);
  expect(apiError(() => h.get(trashed.id)).message).toBe(`no session ${trashed.id}: it is in the trash (rein sessions restore ${trashed.id} brings it back)`);
  expect(kit().store.getSession(trashed.id)?.deleted_at).toBeNumber();
  await h.remove(purged.id, true);
  expect(kit().store.getSession(purged.id)).toBeUndefined();
  expect(apiError(() => h.info(purged.id)).message).toBe(`no session ${purged.id}`);
  expect(h.list().map((v) => v.id)).not.toContain(trashed.id);
});

test("a session created with parameters shows them back (only the kept ones), running or not", async () => {
  const h = hub();
  const s = h.create({ permission_mode: "plan", allow: ["bash(ls *)"], ask: ["edit"], model: "claude-test-1", cwd: "/ignored" });
  const view = h.info(s.id);
  expect(view).toMatchObject({ id: s.id, running: false, settings: { permission_mode: "plan", allow: ["bash(ls *)"], ask: ["edit"] } });
  expect(view.settings).not.toHaveProperty("model");
  expect(h.list().find((v) => v.id === s.id)?.settings).toEqual(view.settings);
  await h.shutdown(1000);
});

test("storedParams keeps the known keys of a settings column and reads junk as none", () => {
  expect(storedParams(JSON.stringify({ permission_mode: "auto", agent: "build", deny: ["webfetch"], colour: "red", allow: [] }))).toEqual({ permission_mode: "auto", agent: "build", deny: ["webfetch"], allow: [] });
  expect(storedParams("{not json")).toEqual({});
  expect(storedParams(null)).toEqual({});
  expect(storedParams("")).toEqual({});
});

test("a session that disappeared from the store meanwhile is not_found, even while loaded", async () => {
  const h = hub();
  const s = h.create({});
  kit().store.deleteSession(s.id);
  expect(apiError(() => h.get(s.id)).code).toBe("not_found");
  expect(apiError(() => h.fork(s.id, undefined)).code).toBe("not_found");
});
