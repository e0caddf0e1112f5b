// PermissionRequest hooks answer an ask for the person, never for a request fixed before the rules.
import { expect, test } from "bun:test";
import * as v from "valibot";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { defineTool } from "../../../src/sdk.ts";
import { ALLOW_ALL, sentResults, useKit } from "../../support/session-kit.ts";
import { hookedSession, hooksOf, say, script } from "./hook-kit.ts";

const kit = useKit();
const runs: string[] = [];
const probe = (name: string, fixed: boolean) =>
  defineTool({
    name,
    description: "Probes.",
    input: v.object({}),
    permissions: () => [{ permission: name, pattern: "x", always: ["x"], ...(fixed ? { fixed: { action: "ask" as const, reason: "a sensitive path" } } : {}) }],
    run: () => (runs.push(name), "probed"),
  });
const tools = [probe("plain", false), probe("secret", true)];
const ask: Rule[] = [...ALLOW_ALL, { permission: "plain", pattern: "*", action: "ask" }, { permission: "secret", pattern: "*", action: "ask" }];
const callOf = (name: string) => ({ reply: [{ type: "tool_use" as const, name, input: {}, id: `t_${name}` }] });
const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`;

test("a PermissionRequest hook's allow answers an ask, but not one for a sensitive path; its deny rejects", async () => {
  runs.length = 0;
  const asked: string[] = [];
  const { session, log } = hookedSession(kit(), hooksOf(["PermissionRequest", "plain|secret", script(kit(), allow)]), {
    tools,
    setup: { rules: ask, askPolicy: (a) => (asked.push(a.tool), { reply: "reject" }) },
  });
  kit().fake.script(callOf("plain"), callOf("secret"), say("ok"));

  await session.prompt("go");

  expect(runs).toEqual(["plain"]);
  expect(asked).toEqual(["secret"]);
  expect(log.of("hook_end").map((e) => e.decision)).toEqual(["allow", "allow"]);

  kit().fake.reset();
  const deny = script(kit(), `echo '{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not on main"}}}'`);
  const second = hookedSession(kit(), hooksOf(["PermissionRequest", "", deny]), { tools, setup: { rules: ask } });
  kit().fake.script(callOf("plain"), say("ok"));
  await second.session.prompt("go");
  expect(String(sentResults(kit().fake.requests[1])[0]!.content)).toContain("a PermissionRequest hook configured by the user denied it: not on main");
});

test("a Notification hook hears of a permission ask that waits for a person, not of one a policy answers (print mode)", async () => {
  const seen = `${kit().dir.path}/notified.json`;
  const { session, log } = hookedSession(kit(), hooksOf(["Notification", "permission_prompt", `cat > ${seen}`]), { tools, setup: { rules: ask } });
  session.subscribe((e) => void (e.type === "permission_ask" && log.waitFor("hook_end", (h) => h.event === "Notification").then(() => session.reply(e.id, "once"))));
  kit().fake.script(callOf("plain"), say("ok"));

  await session.prompt("go");

  expect(JSON.parse(await Bun.file(seen).text())).toMatchObject({ hook_event_name: "Notification", notification_type: "permission_prompt", message: "rein needs your permission to use plain" });

  const printMode = hookedSession(kit(), hooksOf(["Notification", "", `cat > ${seen}.policy`]), { tools, setup: { rules: ask, askPolicy: () => ({ reply: "once" }) } });
  kit().fake.script(callOf("plain"), say("ok"));
  await printMode.session.prompt("go");
  expect(printMode.log.of("permission_reply")).toHaveLength(1);
  expect(printMode.log.of("hook_start")).toEqual([]);
});
