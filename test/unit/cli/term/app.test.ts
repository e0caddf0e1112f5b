// The terminal app's keys and queue, driven in-process on a plain screen (TERM=dumb, every write
// kept) with a real Session on the fake model and a real store: prompts typed before the session
// loads run in order once it has, a prompt sent during a turn waits for it, Esc stops the turn and
// gives the queued prompts back, Ctrl-C and Ctrl-D leave as documented, a pasted line break is no
// Enter, `# note` is remembered and not sent, and a while-running command answers at once.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "../../../../src/app/args.ts";
import { resolveContext } from "../../../../src/app/context.ts";
import { App, type Loaded } from "../../../../src/cli/term/app.ts";
import { LineEditor } from "../../../../src/cli/term/editor.ts";
import type { Key } from "../../../../src/cli/term/keys.ts";
import { Screen } from "../../../../src/cli/term/screen.ts";
import { Transcript } from "../../../../src/cli/term/transcript.ts";
import type { Session } from "../../../../src/session/session.ts";
import * as v from "valibot";
import { defineTool } from "../../../../src/sdk.ts";
import { useKit, type Kit } from "../../../support/session-kit.ts";
import type { EventLog } from "../../../support/event-log.ts";

const kit = useKit({ plain: true });

type Rig = {
  app: App;
  session: Session;
  log: EventLog;
  writes: string[];
  remembered: string[];
  type: (text: string) => void;
  press: (...names: string[]) => void;
  load: () => void;
  live: () => string[];
  /** resolves once the screen has printed `text` */
  printedWhen: (text: string) => Promise<void>;
  /** resolves once a live row holds `text` */
  liveWhen: (text: string) => Promise<void>;
};

function rig(setup: Parameters<Kit["create"]>[0] = {}): Rig {
  const writes: string[] = [];
  const waiting: { text: string; resolve: () => void }[] = [];
  const wrote = (text: string) => {
    writes.push(text);
    const all = writes.join("");
    for (const w of [...waiting]) if (all.includes(w.text)) (waiting.splice(waiting.indexOf(w), 1), w.resolve());
  };
  let live: string[] = [];
  const liveWaiting: { text: string; resolve: () => void }[] = [];
  const screen = new Screen({ write: wrote, columns: () => 100, rows: () => 40 }, false);
  const original = screen.setLive.bind(screen);
  screen.setLive = (region) => {
    live = region.rows;
    for (const w of [...liveWaiting]) if (live.some((row) => row.includes(w.text))) (liveWaiting.splice(liveWaiting.indexOf(w), 1), w.resolve());
    return original(region);
  };
  let app!: App;
  const transcript = new Transcript(screen, { cwd: kit().dir.path, color: false, changed: () => app.changed() });
  const remembered: string[] = [];
  app = new App(screen, transcript, new LineEditor(), (prompt) => void remembered.push(prompt));
  const { session, log } = kit().create(setup);
  session.subscribe(app.onEvent);
  const project = join(kit().dir.path, `app-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(project, ".git"), { recursive: true });
  const ctx = resolveContext(parseArgs(["--cwd", project]), { HOME: project, ANTHROPIC_API_KEY: "k", REIN_CONFIG_DIR: join(project, "config"), REIN_DATA_DIR: join(project, "data") });
  const loaded: Loaded = {
    ctx,
    status: () => "status line",
    host: {
      session: () => session,
      store: () => kit().store,
      custom: () => [],
      tools: async () => [],
      newSession: () => {},
      resume: () => undefined,
      compact: async () => {},
      serve: async () => {},
    },
  };
  return {
    app,
    session,
    log,
    writes,
    remembered,
    type: (text) => app.onKeys([{ name: "text", text }]),
    press: (...names) => app.onKeys(names.map((name) => ({ name }) as Key)),
    load: () => app.ready(loaded),
    live: () => live,
    printedWhen: (text) => (writes.join("").includes(text) ? Promise.resolve() : new Promise((resolve) => void waiting.push({ text, resolve }))),
    liveWhen: (text) => (live.some((row) => row.includes(text)) ? Promise.resolve() : new Promise((resolve) => void liveWaiting.push({ text, resolve }))),
  };
}
const printed = (r: Rig) => r.writes.join("");
const say = (text: string, waitFor?: Promise<unknown>) => ({ reply: [{ type: "text" as const, text }], ...(waitFor ? { waitFor } : {}) });
const results = (r: Rig, n: number) => new Promise<void>((resolve) => {
  const check = () => (r.log.of("result").length >= n ? resolve() : undefined);
  r.session.subscribe(() => queueMicrotask(check));
  check();
});
const userTexts = () => kit().fake.requests.map((q) => q.body.messages.at(-1).content.find((b: { type: string }) => b.type === "text")?.text);

test("prompts typed before the session loads are shown queued, then run in order", async () => {
  const r = rig();
  r.type("first");
  r.press("enter");
  r.type("second");
  r.press("enter");
  expect(r.live().filter((row) => row.startsWith("queued: "))).toEqual(["queued: first", "queued: second"]);
  kit().fake.script(say("one"), say("two"));
  r.load();
  await results(r, 2);
  await r.session.whenIdle();
  expect(userTexts()).toEqual(["first", "second"]);
  expect(r.remembered).toEqual(["first", "second"]);
  expect(printed(r)).toContain("› first");
  expect(printed(r)).toContain("status line");
});

test("a prompt sent while a turn runs waits for it; Esc stops the turn and gives it back to the editor", async () => {
  const r = rig();
  r.load();
  kit().fake.script({ hang: true, afterText: "thinking about it" });
  r.type("a slow question");
  r.press("enter");
  await r.log.waitFor("text_delta");
  r.type("next one");
  r.press("enter");
  expect(r.live()).toContain("queued: next one");
  r.press("escape");
  await r.log.waitFor("result");
  await r.session.whenIdle();
  expect(r.log.of("result")[0]!.status).toBe("interrupted");
  expect(r.app.editor.text).toBe("next one");
  expect(printed(r)).toContain("(interrupted)");
  expect(kit().fake.requests).toHaveLength(1);
});

test("Ctrl-C at an empty prompt asks once more, then leaves with 0; with text it clears the line", async () => {
  const r = rig();
  r.load();
  r.type("half a thought");
  r.press("ctrl-c");
  expect(r.app.editor.text).toBe("");
  r.press("ctrl-c");
  expect(r.live()).toContain("press Ctrl-C again to exit");
  r.press("ctrl-c");
  expect(await r.app.done).toBe(0);
});

test("Ctrl-D deletes under the cursor while there is text, and leaves at an empty prompt", async () => {
  const r = rig();
  r.load();
  r.type("ab");
  r.press("left", "ctrl-d");
  expect(r.app.editor.text).toBe("a");
  r.press("backspace", "ctrl-d");
  expect(await r.app.done).toBe(0);
});

test("a trailing backslash and Enter continue the prompt on a new line; Enter inside a pasted read is a line break", async () => {
  const r = rig();
  r.load();
  r.type("line one \\");
  r.press("enter");
  expect(r.app.editor.text).toBe("line one \n");
  r.app.onKeys([{ name: "text", text: "two" }, { name: "enter" }, { name: "text", text: "three" }]);
  expect(r.app.editor.text).toBe("line one \ntwo\nthree");
  expect(kit().fake.requests).toHaveLength(0);
  kit().fake.script(say("got it"));
  r.press("enter");
  await results(r, 1);
  await r.session.whenIdle();
  expect(userTexts()).toEqual(["line one \ntwo\nthree"]);
});

test("# NOTE is saved as a project memory and never sent to the model", async () => {
  const r = rig();
  r.load();
  r.type("# the API tests need a running database");
  r.press("enter");
  await r.printedWhen("remembered for this project");
  expect(printed(r)).toContain("sessions read it from the next one (this one after /memory reload)");
  expect(kit().fake.requests).toHaveLength(0);
});

test("a command that runs while a turn runs answers at once; an empty Enter sends nothing", async () => {
  const r = rig();
  r.load();
  r.press("enter");
  expect(r.remembered).toEqual([]);
  let release!: () => void;
  kit().fake.script(say("done", new Promise<void>((resolve) => (release = resolve))));
  r.type("work");
  r.press("enter");
  await r.log.waitFor("user");
  r.type("/help");
  r.press("enter");
  // the help's own words, not the typed line
  await r.printedWhen("this list");
  expect(r.log.of("result")).toHaveLength(0);
  expect(r.live().some((row) => row.startsWith("queued:"))).toBe(false);
  release();
  await results(r, 1);
  await r.session.whenIdle();
});

describe("the permission dialog", () => {
  const deploy = defineTool({
    name: "deploy",
    description: "Deploys a service",
    input: v.object({ service: v.string() }),
    permissions: ({ service }) => [{ permission: "deploy", pattern: service, always: [`${service}*`] }],
    run: ({ service }) => `deployed ${service}`,
  });
  const asking = async () => {
    const r = rig({ rules: [], tools: [deploy] });
    r.load();
    kit().fake.script({ reply: [{ type: "tool_use", name: "deploy", input: { service: "api" }, id: "toolu_d" }] }, say("over"));
    r.type("deploy it");
    r.press("enter");
    await r.log.waitFor("permission_ask");
    await r.liveWhen("what you type goes to your prompt");
    return r;
  };

  test("keys typed as it appears go to the prompt, not the answers; once armed a number and Enter answer", async () => {
    const r = await asking();
    r.type("1");
    r.press("enter");
    // the 1 and the Enter were the prompt's: the prompt waits behind the turn, the ask is still open
    expect(r.log.of("permission_reply")).toHaveLength(0);
    expect(r.live()).toContain("queued: 1");
    await r.liveWhen("↑↓ choose · Enter confirms · Esc: no");
    r.type("1");
    r.press("enter");
    await r.log.waitFor("permission_reply");
    expect(r.log.of("permission_reply")[0]!.reply).toBe("once");
    await r.printedWhen("allowed once");
    kit().fake.script(say("and the queued one"));
    await results(r, 2);
    await r.session.whenIdle();
    expect(userTexts().at(-1)).toBe("1");
  });

  test("Esc once armed says no; the model hears the call was refused", async () => {
    const r = await asking();
    await r.liveWhen("↑↓ choose · Enter confirms · Esc: no");
    r.press("escape");
    await r.log.waitFor("result");
    await r.session.whenIdle();
    expect(r.log.of("permission_reply")[0]!.reply).toBe("reject");
    expect(printed(r)).toContain("rejected");
  });

  test("the last answer asks for a message: it is typed at the prompt and sent with the refusal", async () => {
    const r = await asking();
    await r.liveWhen("↑↓ choose · Enter confirms · Esc: no");
    r.press("up");
    r.press("enter");
    await r.liveWhen("why? › ");
    r.type("deploy web first");
    r.press("enter");
    await r.log.waitFor("result");
    await r.session.whenIdle();
    expect(r.log.of("permission_reply")[0]).toMatchObject({ reply: "reject", message: "deploy web first" });
    expect(printed(r)).toContain("rejected: deploy web first");
    expect(JSON.stringify(kit().fake.requests.at(-1)!.body.messages.at(-1))).toContain("deploy web first");
  });
});
