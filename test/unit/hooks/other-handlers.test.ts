// The http and prompt handler types, through a real Session: a local HTTP server, and the fake
// model answering the prompt hook's own call.
import { afterAll, expect, test } from "bun:test";
import { sentMessages, sentResults, useKit } from "../../support/session-kit.ts";
import { bashCall, hookedSession, say } from "./hook-kit.ts";

const kit = useKit();
const heard: { body: Record<string, unknown>; auth: string | null; other: string | null }[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    heard.push({ body: (await req.json()) as Record<string, unknown>, auth: req.headers.get("authorization"), other: req.headers.get("x-other") });
    if (new URL(req.url).pathname === "/fail") return new Response("nope", { status: 500 });
    return Response.json({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "the policy server said no" } });
  },
});
afterAll(() => {
  server.stop(true);
  delete process.env.HOOK_TEST_TOKEN;
  delete process.env.HOOK_TEST_OTHER;
});

test("an http hook gets the payload as a POST, headers expand only allowed variables, and its JSON decides", async () => {
  process.env.HOOK_TEST_TOKEN = "tok-123";
  process.env.HOOK_TEST_OTHER = "must-not-appear";
  const { session, log } = hookedSession(kit(), {
    PreToolUse: [{
      matcher: "Bash",
      hooks: [{ type: "http", url: `${server.url}check`, headers: { authorization: "Bearer $HOOK_TEST_TOKEN", "x-other": "${HOOK_TEST_OTHER}" }, allowedEnvVars: ["HOOK_TEST_TOKEN"] }],
    }],
  });
  kit().fake.script(bashCall("t1", "echo hi"), say("ok"));

  await session.prompt("go");

  expect(heard.at(-1)).toMatchObject({ body: { hook_event_name: "PreToolUse", tool_name: "bash", tool_input: { command: "echo hi" } }, auth: "Bearer tok-123", other: "${HOOK_TEST_OTHER}" });
  expect(String(sentResults(kit().fake.requests[1])[0]!.content)).toContain("the policy server said no");
  expect(log.of("hook_end")[0]).toMatchObject({ handler: `http: ${server.url}check`, decision: "deny" });
});

test("an http hook answering 500 is a non-blocking error", async () => {
  const { session, log } = hookedSession(kit(), { PreToolUse: [{ hooks: [{ type: "http", url: `${server.url}fail` }] }] });
  kit().fake.script(bashCall("t1", "echo still-ran"), say("ok"));
  await session.prompt("go");
  expect(log.of("hook_end")[0]!.error).toContain("HTTP 500");
  expect(String(sentResults(kit().fake.requests[1])[0]!.content)).toContain("still-ran");
});

test("a prompt Stop hook asks the model once per stop; ok:false keeps the run going with its reason", async () => {
  const { session } = hookedSession(kit(), { Stop: [{ hooks: [{ type: "prompt", prompt: "Did the agent run the tests? $ARGUMENTS" }] }] });
  kit().fake.script(
    say("done"),
    say('{"ok": false, "reason": "run the tests before stopping"}'),
    say("tests pass now"),
    say('{"ok": true}'),
  );

  const result = await session.prompt("fix it");

  expect(result).toMatchObject({ status: "success", text: "tests pass now" });
  const check = sentMessages(kit().fake.requests[1]);
  expect(JSON.stringify(check)).toContain("Did the agent run the tests?");
  expect(JSON.stringify(check)).toContain('\\"hook_event_name\\":\\"Stop\\"');
  expect(JSON.stringify(sentMessages(kit().fake.requests[2]).at(-1))).toContain("run the tests before stopping");
});
