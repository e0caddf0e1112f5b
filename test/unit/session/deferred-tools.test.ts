// Deferred tools through a whole session (the fake model, the real loop): their definitions wait
// until the model loads them, a line each in load_tools stands in for them, and they stay callable.
import { beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import { defineTool } from "../../../src/sdk.ts";
import { Session } from "../../../src/session/session.ts";
import { type Kit, sentResults, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const tool = (name: string, description: string) => defineTool({ name, description, input: v.object({}), run: () => `${name} ran` });
const tools = [tool("read", "Read a file."), tool("history", "Search this session."), tool("webfetch", "Fetch a URL.")];
const offered = (i: number) => ((kit.fake.requests[i]!.body as { tools: { name: string; description: string }[] }).tools ?? []);
const call = (name: string, input: unknown = {}) => ({ reply: [{ type: "tool_use" as const, name, input }] });

test("only their names are sent until loaded; a direct call runs; a loaded tool is sent from the next turn", async () => {
  kit.fake.script(call("webfetch"), call("load_tools", { names: ["history", "nothing"] }), { reply: [{ type: "text", text: "done" }] });
  const session = Session.create(kit.dir.path, { ...kit.options({ tools }), deferredTools: ["history", "webfetch"] });
  const result = await session.prompt("go");

  expect(result.status).toBe("success");
  expect(offered(0).map((t) => t.name)).toEqual(["read", "load_tools"]);
  expect(offered(0)[1]!.description).toContain("history (this session's stored conversation), webfetch (GET a URL as text)");
  expect(String(sentResults(kit.fake.requests[1])[0]!.content)).toBe("webfetch ran");
  expect(offered(1).map((t) => t.name)).toEqual(["read", "load_tools"]);
  expect(String(sentResults(kit.fake.requests[2])[0]!.content)).toBe("Loaded history: described from your next turn. Not tools to load: nothing.");
  expect(offered(2).map((t) => t.name)).toEqual(["read", "history", "load_tools"]);
  expect(offered(2)[2]!.description).not.toContain("history (");
});

test("a load naming none of them is an error that lists what can be loaded", async () => {
  kit.fake.script(call("load_tools", { names: ["bash"] }), { reply: [{ type: "text", text: "done" }] });
  await Session.create(kit.dir.path, { ...kit.options({ tools }), deferredTools: ["history"] }).prompt("go");
  const [result] = sentResults(kit.fake.requests[1]);
  expect(result!.is_error).toBe(true);
  expect(String(result!.content)).toBe("None of bash is a tool to load; these are: history.");
});
