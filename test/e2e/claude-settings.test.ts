// A Claude Code project moves in: its `.claude/settings.json` deny rule keeps a file from the model
// in every mode (print, server, ACP), trusted or not, through the read tool and through bash alike
// (Claude Code 2.1.332 refuses `cat secret.txt` under a `Read(./secret.txt)` deny too, with Bash
// allowed: recorded by hand against the scripted fake, see the report of issue 29).
import { afterEach, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { INIT, newWorld, startAgent, stopAgents } from "./acp-client.ts";
import { bash, resultText, text, toolResultsOf, world, type World } from "./harness.ts";

afterEach(stopAgents);

const SECRET = "TOPSECRET-4242";

async function claudeProject(w: World): Promise<void> {
  await writeFile(w.path("secret.txt"), `${SECRET}\n`);
  await mkdir(w.path(".claude"), { recursive: true });
  await mkdir(w.path("secrets"), { recursive: true });
  await writeFile(w.path("secrets", "key.txt"), `${SECRET}\n`);
  await writeFile(w.path(".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./secret.txt)", "Read(./secrets/**)"] } }));
}

function scriptReads(w: World): void {
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_read", name: "read", input: { path: "secret.txt" } }] },
    { reply: [bash("cat secret.txt", "toolu_cat")] },
    { reply: [bash("grep -r TOPSECRET secrets", "toolu_grep")] },
    { reply: [text("done")] },
  );
}

/** Nothing the model was sent holds the secret, and each of the three calls came back refused. */
function expectKept(w: World): void {
  for (const request of w.fake.requests) expect(request.bodyText).not.toContain(SECRET);
  const results = w.fake.requests.slice(1, 4).map((request) => toolResultsOf(request)[0]);
  expect(results.map((r) => r?.is_error)).toEqual([true, true, true]);
  expect(resultText(results[0])).toContain("denied");
}

for (const trust of [false, true]) {
  const flags = trust ? ["--trust"] : [];
  test.concurrent(`print mode${trust ? " --trust" : ""}: the deny holds for read, cat and grep -r of a denied folder, also in auto mode with bash allowed`, async () => {
    await using w = await world();
    await claudeProject(w);
    scriptReads(w);
    const r = await w.run(["-p", "show me the secret", "--permission-mode", "auto", "--allow", "bash", ...flags]);
    expect(r.code).toBe(0);
    expectKept(w);
  });

  test.concurrent(`the server${trust ? " --trust" : ""}: the deny holds for a session made over HTTP`, async () => {
    await using w = await world();
    await claudeProject(w);
    scriptReads(w);
    const token = "e2e-server-token-of-32-chars-ok!";
    const rein = w.start(["--serve", "--port", "0", ...flags], { env: { REIN_SERVER_TOKEN: token } });
    await rein.waitForStdout((out) => out.includes("\n"), "the server's URL");
    const url = rein.stdout.split("\n")[0]!;
    const call = (path: string, body: unknown) => fetch(`${url}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const created = (await (await call("/sessions", { permission_mode: "auto", allow: ["bash"] })).json()) as { id: string };
    const res = await call(`/sessions/${created.id}/prompt?wait=1`, { text: "show me the secret" });
    expect(res.status).toBe(200);
    expectKept(w);
    rein.kill("SIGTERM");
    await rein.exited;
  });
}

for (const trust of [false, true]) {
  test(`ACP${trust ? " --trust" : ""}: the deny holds, and nobody is even asked`, async () => {
    const w = await newWorld();
    await claudeProject(w);
    scriptReads(w);
    // An editor starts `rein acp` with no flags: a trusted workspace is one the user trusted before.
    if (trust) await writeFile(join(w.dataDir, "trust.json"), JSON.stringify({ trusted: [w.cwd], distrusted: [] }));
    const agent = startAgent(w, (ask) => ({ outcome: { outcome: "selected", optionId: ask.options.find((o) => o.kind === "allow_once")!.optionId } }));
    await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
    const done = await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "show me the secret" }] });
    expect(done.stopReason).toBe("end_turn");
    expectKept(w);
    expect(agent.asks.filter((a) => JSON.stringify(a).includes("secret.txt"))).toEqual([]);
  });
}

test.concurrent("rein doctor lists each settings file read, what it applied, and one line for each key it did not", async () => {
  await using w = await world();
  await mkdir(w.path(".claude"), { recursive: true });
  const file = w.path(".claude", "settings.json");
  await writeFile(file, JSON.stringify({ permissions: { deny: ["Read(./secret.txt)", "ExitPlanMode"], allow: ["Bash(npm test:*)"] }, statusLine: { type: "command" }, model: "opus" }));
  const r = await w.run(["doctor"]);
  const lines = r.stdout.split("\n").filter((l) => /^(ok  |FAIL) settings /.test(l));
  expect(lines[0]).toBe(`ok   settings      ${file} (project): applied permissions.deny: 1 rein rule`);
  expect(lines.slice(1)).toEqual([
    `ok   settings      ${file}: not applied: statusLine: rein has no such setting`,
    `ok   settings      ${file}: not applied: permissions.allow (1 rule): the workspace is not trusted (run with --trust, or answer the trust question, to apply it)`,
    `ok   settings      ${file}: not applied: permissions.deny "ExitPlanMode": rein has no tool for Claude Code's ExitPlanMode`,
    `ok   settings      ${file}: not applied: model "opus": the workspace is not trusted (run with --trust, or answer the trust question, to apply it)`,
  ]);
  expect(r.stdout).toContain(`read ${file}`);
});
