// A server that returns 50 MB, through a real Session against the fake model: the model reads a
// bounded result that names where the whole output was saved, and the run goes on.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sessionOptions } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import { Store } from "../../../src/session/store.ts";
import { startFakeAnthropic } from "../../fake/server.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { rogue, runSettings } from "./servers.ts";

test("a 50 MB result is bounded for the model and saved whole; the run goes on", async () => {
  const fake = await startFakeAnthropic({ strict: true });
  const dir = tempDir("rein-mcp-huge-");
  const { store } = Store.open(join(dir.path, "rein.db"));
  const settings = runSettings(dir.path, fake.url, { rogue: rogue() });
  settings.rules.user = [{ permission: "mcp__rogue", pattern: "*", action: "allow" }];
  const session = Session.create(dir.path, sessionOptions(settings, store));
  try {
    fake.script({ reply: [{ type: "tool_use", id: "t1", name: "mcp__rogue__huge", input: {} }] }, { reply: [{ type: "text", text: "big" }] });
    const result = await session.prompt("get it");
    expect(result).toMatchObject({ status: "success", text: "big" });
    const sent = JSON.stringify(fake.requests[1]!.body.messages.at(-1));
    expect(sent.length).toBeLessThan(100_000);
    expect(sent).toContain("start");
    expect(sent).toContain("end");
    const saved = readdirSync(join(dir.path, "output", session.id)).map((f) => join(dir.path, "output", session.id, f));
    expect(saved).toHaveLength(1);
    expect(statSync(saved[0]!).size).toBeGreaterThan(50_000_000);
    expect(sent).toContain(saved[0]!);
    expect(readFileSync(saved[0]!, "utf8").endsWith("end")).toBe(true);
  } finally {
    await session.end("other").catch(() => undefined);
    store.close();
    dir.remove();
    await fake.close();
  }
}, 60_000);
