// The permission dialog's answers, given to a real Session that is waiting on a real ask (the fake
// model calls a tool no rule allows): what the model is told, what the session approves from then on,
// and what "always" writes into the project's or the user's config file, read back by the config loader.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { parseArgs } from "../../../../src/app/args.ts";
import { resolveContext, type Context } from "../../../../src/app/context.ts";
import { answer, dialogOptions, type AskEvent } from "../../../../src/cli/term/dialog.ts";
import { defineTool } from "../../../../src/sdk.ts";
import type { Session } from "../../../../src/session/session.ts";
import write from "../../../../tools/write.ts";
import { sentResults, useKit } from "../../../support/session-kit.ts";
import type { EventLog } from "../../../support/event-log.ts";

const kit = useKit({ plain: true });

const deploy = defineTool({
  name: "deploy",
  description: "Deploys a service",
  input: v.object({ service: v.string() }),
  permissions: ({ service }) => [{ permission: "deploy", pattern: service, always: [`${service}*`] }],
  run: ({ service }) => `deployed ${service}`,
});

let ctx: Context;
let project: string;
beforeEach(() => {
  project = join(kit().dir.path, `project-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(project, ".git"), { recursive: true });
  const env = { HOME: join(project, "home"), ANTHROPIC_API_KEY: "k", REIN_CONFIG_DIR: join(project, "config"), REIN_DATA_DIR: join(project, "data") };
  ctx = resolveContext(parseArgs(["--cwd", project, "--trust"]), env);
});

/** A session that asks to deploy `service`, the ask it is waiting on, and the run's end. */
async function asking(service: string): Promise<{ session: Session; log: EventLog; ask: AskEvent; done: Promise<unknown> }> {
  const { session, log } = kit().create({ rules: [], tools: [deploy] });
  kit().fake.script({ reply: [{ type: "tool_use", name: "deploy", input: { service }, id: "toolu_deploy" }] }, { reply: [{ type: "text", text: "over" }] });
  const done = session.prompt(`deploy ${service}`);
  const ask = await log.waitFor("permission_ask");
  return { session, log, ask, done };
}
const lastResult = () => sentResults(kit().fake.requests.at(-1))[0]!;
const rulesIn = (file: string) => JSON.parse(readFileSync(file, "utf8")).permissions.allow as string[];

describe("answers for this call only", () => {
  test("once: the call runs and nothing is approved after it", async () => {
    const { session, ask, done } = await asking("api");
    expect(answer(ctx, session, ask, "once")).toBe("allowed once");
    await done;
    expect(lastResult()).toMatchObject({ tool_use_id: "toolu_deploy", content: "deployed api" });
    expect(session.approvals()).toEqual([]);
  });

  test("reject: the call does not run; a message is passed on to the model", async () => {
    const first = await asking("api");
    expect(answer(ctx, first.session, first.ask, "reject")).toBe("rejected");
    await first.done;
    expect(lastResult().is_error).toBe(true);
    expect(JSON.stringify(lastResult().content)).not.toContain("deployed");
    const second = await asking("db");
    expect(answer(ctx, second.session, second.ask, "reject", "deploy web first")).toBe("rejected: deploy web first");
    await second.done;
    expect(JSON.stringify(lastResult().content)).toContain("deploy web first");
  });
});

describe("answers that approve more", () => {
  test("session: the shown rule is approved for this session only, and no file is written", async () => {
    const { session, ask, done } = await asking("api");
    expect(answer(ctx, session, ask, "session")).toBe("allowed for this session: deploy(api*)");
    await done;
    expect(session.approvals().map((r) => [r.permission, r.pattern])).toEqual([["deploy", "api*"]]);
    expect(() => readFileSync(ctx.paths.userConfig)).toThrow();
  });

  test("project: saved to the project's config, which the next run loads", async () => {
    const { session, ask, done } = await asking("api");
    const file = join(project, ".rein", "config.json");
    expect(answer(ctx, session, ask, "project")).toBe(`allowed always, saved to ${file}: deploy(api*)`);
    await done;
    expect(rulesIn(file)).toEqual(["deploy(api*)"]);
    const next = resolveContext(parseArgs(["--cwd", project, "--trust"]), ctx.env);
    expect(next.config.rules.project).toContainEqual(expect.objectContaining({ permission: "deploy", pattern: "api*", action: "allow" }));
  });

  test("user: saved to the user's config beside what it already held", async () => {
    mkdirSync(join(project, "config"), { recursive: true });
    writeFileSync(ctx.paths.userConfig, JSON.stringify({ model: "claude-opus-4-5", permissions: { allow: ["bash(git status)"] } }, null, 2));
    const { session, ask, done } = await asking("web");
    expect(answer(ctx, session, ask, "user")).toBe(`allowed always, saved to ${ctx.paths.userConfig}: deploy(web*)`);
    await done;
    const saved = JSON.parse(readFileSync(ctx.paths.userConfig, "utf8"));
    expect(saved.model).toBe("claude-opus-4-5");
    expect(saved.permissions.allow).toEqual(["bash(git status)", "deploy(web*)"]);
  });

  test("a config file that cannot take the rule: allowed for this session only, and the file is untouched", async () => {
    mkdirSync(join(project, "config"), { recursive: true });
    writeFileSync(ctx.paths.userConfig, "{ this is not JSON");
    const { session, ask, done } = await asking("web");
    const note = answer(ctx, session, ask, "user");
    expect(note).toEndWith("; allowed for this session only: deploy(web*)");
    await done;
    expect(readFileSync(ctx.paths.userConfig, "utf8")).toBe("{ this is not JSON");
    expect(lastResult().content).toBe("deployed web");
  });
});

describe("a file edit's folder", () => {
  test("folder: the edits in that folder are approved for the session, the next write there asks nothing", async () => {
    const { session, log } = kit().create({ rules: [{ permission: "read", pattern: "*", action: "allow" }], tools: [write] });
    mkdirSync(join(kit().dir.path, "docs"), { recursive: true });
    kit().fake.script(
      { reply: [{ type: "tool_use", name: "write", input: { path: "docs/a.md", content: "A\n" }, id: "toolu_w1" }] },
      { reply: [{ type: "tool_use", name: "write", input: { path: "docs/b.md", content: "B\n" }, id: "toolu_w2" }] },
      { reply: [{ type: "text", text: "written" }] },
    );
    const done = session.prompt("write the docs");
    const ask = await log.waitFor("permission_ask");
    expect(dialogOptions(ask, true).map((o) => o.choice)).toContain("folder");
    expect(answer(ctx, session, ask, "folder")).toBe(`allowed for this session: edit(${join(kit().dir.path, "docs")}/*)`);
    await done;
    expect(log.of("permission_ask")).toHaveLength(1);
    expect(readFileSync(join(kit().dir.path, "docs", "b.md"), "utf8")).toBe("B\n");
    expect(session.approvals()).toContainEqual(expect.objectContaining({ permission: "edit", pattern: `${join(kit().dir.path, "docs")}/*`, action: "allow", source: "approved in this session" }));
  });
});

describe("the options offered", () => {
  test("an ask with an always pattern offers the three always answers when trusted, no project one when not", async () => {
    const { session, ask, done } = await asking("api");
    expect(dialogOptions(ask, true).map((o) => o.choice)).toEqual(["once", "session", "project", "user", "reject", "message"]);
    expect(dialogOptions(ask, false).map((o) => o.choice)).toEqual(["once", "session", "user", "reject", "message"]);
    expect(dialogOptions(ask, true).map((o) => o.key)).toEqual(["1", "2", "3", "4", "5", "6"]);
    answer(ctx, session, ask, "reject");
    await done;
  });
});
