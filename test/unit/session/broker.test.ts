import { expect, test } from "bun:test";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { PermissionBroker, type Answer, type Ask } from "../../../src/session/broker.ts";

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
