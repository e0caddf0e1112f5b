// Hooks under `rein acp`: a session starts once at its first prompt, switching its mode goes on
// with the same session (no second SessionStart), and the client closing the connection ends it.
import { afterEach, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { INIT, newWorld, startAgent, stopAgents } from "./acp-client.ts";

afterEach(stopAgents);

test("SessionStart once per session, through a mode switch; SessionEnd when the client closes", async () => {
  const w = await newWorld();
  const log = w.path("lifecycle.log");
  const record = (event: string, field: string) => [{ hooks: [{ type: "command", command: `printf '%s ' "${event}:$(sed -n 's/.*"${field}":"\\([^"]*\\)".*/\\1/p')" >> ${log}` }] }];
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { SessionStart: record("start", "source"), SessionEnd: record("end", "reason") } }));
  w.fake.script({ reply: [{ type: "text", text: "One." }] }, { reply: [{ type: "text", text: "Two." }] });
  const agent = startAgent(w);
  await agent.conn.agent.request(acp.methods.agent.initialize, INIT);
  const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: w.cwd, mcpServers: [] });
  await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "one" }] });
  await agent.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
  await agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] });
  expect(await readFile(log, "utf8")).toBe("start:startup ");
  agent.closeStdin();
  expect(await agent.exited).toBe(0);
  expect(await readFile(log, "utf8")).toBe("start:startup end:other ");
});
