import { expect, test } from "bun:test";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { PermissionBroker, type Answer, type Ask } from "../../../src/session/broker.ts";
import { ruleSet } from "../../../src/app/factory.ts";

function broker(rules: Rule[] = []) {
  const asks: Ask[] = [];
  const replies: { id: string; answer: Answer }[] = [];
  let n = 0;
  const b = new PermissionBroker({
    rules: () => rules,
    newId: () => `ask_${++n}`,
    emitAsk: (ask) => void asks.push(ask),
    emitReply: (id, answer) => void replies.push({ id, answer }),
  });
  return { b, asks, replies };
}

const bash = (command: string) => ({
  toolUseId: `toolu_${command}`,
  tool: "bash",
  input: { command },
  requests: [{ permission: "bash", pattern: command, always: [`${command.split(" ")[0]} *`] }],
});

test("rejecting one ask rejects the session's other open asks too", async () => {
  const { b, asks, replies } = broker();
  const first = b.authorize(bash("npm install"));
  const second = b.authorize(bash("git push"));
  expect(asks.map((a) => a.id)).toEqual(["ask_1", "ask_2"]);
  b.reply("ask_1", "reject", "not now");
  expect(await first).toEqual({ allow: false, message: "The user rejected this tool call; it did not run. The user said: not now" });
  expect((await second).allow).toBe(false);
  expect(replies.map((r) => [r.id, r.answer.reply])).toEqual([["ask_1", "reject"], ["ask_2", "reject"]]);
  expect(b.pending()).toEqual([]);
});

test("an answer that is not a yes rejects: a policy or client giving back anything but once or always", async () => {
  for (const odd of [{ reply: "yes" }, { reply: undefined }, {}, "reject"]) {
    const b = new PermissionBroker({ rules: () => [], newId: () => "ask_1", emitAsk: () => {}, emitReply: () => {}, policy: () => odd as unknown as Answer });
    expect((await b.authorize(bash("npm install"))).allow).toBe(false);
  }
});

test("an always answers the open asks it now covers, and only those", async () => {
  const { b, replies } = broker();
  const first = b.authorize(bash("npm install left-pad"));
  const covered = b.authorize(bash("npm install lodash"));
  const other = b.authorize(bash("git push"));
  b.reply("ask_1", "always");
  expect(await first).toEqual({ allow: true });
  expect(await covered).toEqual({ allow: true });
  expect(b.pending().map((a) => a.id)).toEqual(["ask_3"]);
  expect(replies.find((r) => r.id === "ask_2")?.answer.message).toContain("always");
  b.reply("ask_3", "once");
  expect(await other).toEqual({ allow: true });
  // later calls the approval covers do not ask again
  expect(await b.authorize(bash("npm install react"))).toEqual({ allow: true });
});

test("an approval never overrides a configured deny", async () => {
  const { b } = broker([{ permission: "bash", pattern: "npm publish *", action: "deny" }]);
  const first = b.authorize(bash("npm install"));
  b.reply("ask_1", "always");
  await first;
  const denied = await b.authorize(bash("npm publish --tag x"));
  expect(denied.allow).toBe(false);
  expect(denied.allow === false && denied.message).toContain("forbidden");
});

test("the decision says when only the built-in read-only rules allowed a call, and not when a rule or a person did", async () => {
  const readOnly: Rule = { permission: "bash", pattern: "ls *", action: "allow", readOnly: true };
  const configured: Rule = { permission: "bash", pattern: "npm test *", action: "allow" };
  const { b, asks } = broker([readOnly, configured]);
  expect(await b.authorize(bash("ls src"))).toEqual({ allow: true, readOnly: true });
  expect(await b.authorize(bash("npm test"))).toEqual({ allow: true });
  const mixed = { ...bash("ls src"), requests: [...bash("ls src").requests, ...bash("npm test").requests] };
  expect(await b.authorize(mixed)).toEqual({ allow: true });
  const answered = b.authorize(bash("git push"));
  b.reply(asks[0]!.id, "once");
  expect(await answered).toEqual({ allow: true });
  // a read-only rule under a person's approval of the same call: the person allowed it
  const confirmed = b.authorize({ ...bash("ls src"), reason: "the same call again" });
  b.reply(asks[1]!.id, "once");
  expect(await confirmed).toEqual({ allow: true });
});

test("the defaults' and plan mode's read-only commands are allowed by the analysis; auto mode's allow-all is a rule", async () => {
  const none = { user: [], project: [], flags: [] };
  expect(await broker(ruleSet("default", none)).b.authorize(bash("ls src"))).toEqual({ allow: true, readOnly: true });
  expect(await broker(ruleSet("plan", none)).b.authorize(bash("ls src"))).toEqual({ allow: true, readOnly: true });
  expect(await broker(ruleSet("auto", none)).b.authorize(bash("ls src"))).toEqual({ allow: true });
  const user = { ...none, user: [{ permission: "bash", pattern: "ls *", action: "allow" as const }] };
  expect(await broker(ruleSet("default", user)).b.authorize(bash("ls src"))).toEqual({ allow: true });
});

test("a Claude Code PreToolUse allow answers an ask, but never a deny rule, a sensitive path's fixed ask or a repeat's confirmation", async () => {
  const { b, asks } = broker([{ permission: "bash", pattern: "rm *", action: "deny" }]);
  expect(await b.authorize({ ...bash("npm install"), hookAllow: true })).toEqual({ allow: true });
  expect(asks).toHaveLength(0);
  expect((await b.authorize({ ...bash("rm -rf build"), hookAllow: true })).allow).toBe(false);
  const sensitive = { toolUseId: "toolu_key", tool: "read", input: { path: "~/.ssh/id_rsa" }, requests: [{ permission: "read", pattern: "/home/u/.ssh/id_rsa", always: [], fixed: { action: "ask" as const, reason: "a credential" } }], hookAllow: true };
  void b.authorize(sensitive);
  void b.authorize({ ...bash("npm test"), hookAllow: true, reason: "the same call a third time" });
  expect(asks.map((a) => a.toolUseId)).toEqual(["toolu_key", "toolu_npm test"]);
  b.rejectAll("done");
});
