// Which session a run works in, on a real store with conversations the fake model answered: a new
// one (with Claude Code's --session-id), the latest of this folder (-c), one by id or prefix (-r),
// a fork (--fork-session) that leaves the original as it was, and the model a resumed session runs.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs, UsageError } from "../../../src/app/args.ts";
import { resolveContext } from "../../../src/app/context.ts";
import { openSession, resumeSession } from "../../../src/cli/open-session.ts";
import { providerSetup } from "../../../src/llm/setup.ts";
import type { Session } from "../../../src/session/session.ts";
import { useKit } from "../../support/session-kit.ts";

const kit = useKit();

let folders = 0;
/** A fresh folder (its own "latest session") and a context for `argv` run in it. */
function place() {
  const cwd = join(kit().dir.path, `work-${++folders}`);
  mkdirSync(cwd, { recursive: true });
  const env = { HOME: kit().dir.path, ANTHROPIC_API_KEY: "k", REIN_CONFIG_DIR: join(kit().dir.path, "config"), REIN_DATA_DIR: kit().dir.path };
  return { cwd, ctx: (...argv: string[]) => resolveContext(parseArgs(["-p", "x", "--cwd", cwd, ...argv]), env) };
}
async function talked(session: Session, prompt: string): Promise<Session> {
  kit().fake.script({ reply: [{ type: "text", text: `answer to ${prompt}` }] });
  await session.prompt(prompt);
  return session;
}
const open = (ctx: ReturnType<ReturnType<typeof place>["ctx"]>, warn?: (line: string) => void) => openSession(ctx, kit().store, { ...kit().options() }, warn);
const usage = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a usage error");
};
const texts = (session: Session) => session.history().map((m) => (typeof m.content === "string" ? m.content : m.content.map((b) => ("text" in b ? b.text : "")).join("")));

test("no flag: a new session in this folder; --session-id gives it that id", () => {
  const here = place();
  const fresh = open(here.ctx());
  expect(fresh.row.cwd).toBe(here.cwd);
  expect(fresh.history()).toEqual([]);
  const named = open(here.ctx("--session-id", "123e4567-e89b-12d3-a456-426614174000"));
  expect(named.id).toBe("123e4567-e89b-12d3-a456-426614174000");
  expect(usage(() => open(here.ctx("--session-id", "123e4567-e89b-12d3-a456-426614174000")))).toBe(
    "session 123e4567-e89b-12d3-a456-426614174000 already exists: resume it with -r 123e4567-e89b-12d3-a456-426614174000",
  );
});

test("-c goes on with the latest session of this folder, not another folder's", async () => {
  const here = place();
  const elsewhere = place();
  await talked(open(here.ctx()), "older");
  const latest = await talked(open(here.ctx()), "newer");
  await talked(open(elsewhere.ctx()), "other folder");
  const resumed = open(here.ctx("-c"));
  expect(resumed.id).toBe(latest.id);
  expect(texts(resumed)).toEqual(["newer", "answer to newer"]);
  expect(usage(() => open(place().ctx("-c")))).toStartWith("no session to continue in ");
});

test("-r takes an id or a unique prefix; an unknown one is the store's sentence", async () => {
  const here = place();
  const session = await talked(open(here.ctx()), "remember me");
  expect(open(here.ctx("-r", session.id)).id).toBe(session.id);
  expect(open(here.ctx("-r", session.id.slice(0, 10))).id).toBe(session.id);
  expect(usage(() => open(here.ctx("-r", "s_nothing_like_it")))).toContain("s_nothing_like_it");
});

test("--fork-session goes on in a copy under a new id; the original keeps its conversation", async () => {
  const here = place();
  const original = await talked(open(here.ctx()), "the start");
  const fork = open(here.ctx("-r", original.id, "--fork-session"));
  expect(fork.id).not.toBe(original.id);
  expect(texts(fork)).toEqual(["the start", "answer to the start"]);
  await talked(fork, "only in the fork");
  const again = open(here.ctx("-r", original.id));
  expect(texts(again)).toEqual(["the start", "answer to the start"]);
  const named = open(here.ctx("-r", original.id, "--fork-session", "--session-id", "00000000-0000-4000-8000-000000000001"));
  expect(named.id).toBe("00000000-0000-4000-8000-000000000001");
});

test("--session-id with -c or -r needs --fork-session", () => {
  const here = place();
  expect(usage(() => open(here.ctx("-c", "--session-id", "00000000-0000-4000-8000-000000000002")))).toBe(
    "--session-id names a new session: with -c or -r it needs --fork-session (the fork gets that id)",
  );
});

describe("the model of a resumed session", () => {
  const catalog = (env: Record<string, string> = {}) => {
    const setup = providerSetup({ entries: [], env: { ANTHROPIC_API_KEY: "k", ...env }, anthropic: { apiKey: "k" } });
    if (typeof setup === "string") throw new Error(setup);
    return setup.models;
  };

  test("a resumed session runs the model it was switched to; an explicit --model wins for that run", async () => {
    const here = place();
    const options = { ...kit().options(), models: catalog(), model: "claude-sonnet-5-5" };
    const session = openSession(here.ctx(), kit().store, options);
    session.setModel("claude-haiku-4-5");
    const row = kit().store.getSession(session.id)!;
    expect(resumeSession(row, options, undefined).model).toBe("claude-haiku-4-5");
    expect(resumeSession(row, options, "claude-opus-4-5").model).toBe("claude-sonnet-5-5");
    // never switched: the configured model, whatever the session first ran
    const plain = openSession(here.ctx(), kit().store, options);
    expect(resumeSession(kit().store.getSession(plain.id)!, { ...options, model: "claude-opus-5-5" }, undefined).model).toBe("claude-opus-5-5");
  });

  test("a switched-to model that cannot be used now is said in one line, and the configured one runs", () => {
    const here = place();
    const options = { ...kit().options(), models: catalog(), model: "claude-sonnet-5-5" };
    // switched while OPENAI_API_KEY was set; resumed after it is gone
    const session = openSession(here.ctx(), kit().store, { ...options, models: catalog({ OPENAI_API_KEY: "sk-openai" }) });
    session.setModel("openai/gpt-5");
    const warnings: string[] = [];
    const resumed = resumeSession(kit().store.getSession(session.id)!, options, undefined, (line) => warnings.push(line));
    expect(resumed.model).toBe("claude-sonnet-5-5");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith(`session ${session.id} was switched to openai/gpt-5 with /model, which cannot be used now (`);
    expect(warnings[0]).toEndWith("); it goes on with claude-sonnet-5-5");
  });
});
