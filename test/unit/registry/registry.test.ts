// The tool registry on real tool files in real folders: what loads and in what order, every way a
// file can fail (as data naming the file, never a throw), names taken by a built-in or an earlier
// folder, hot reload of a tool and of a helper it imports, and tools from a provider (MCP).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { builtinTools } from "../../../src/registry/builtin.ts";
import { ToolRegistry, type LoadError, type ToolDir } from "../../../src/registry/registry.ts";
import { defineTool, type Tool } from "../../../src/sdk.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext } from "../../support/tool-context.ts";

let dir: TempDir;
let user: string;
let project: string;
beforeEach(() => {
  dir = tempDir("rein-registry-");
  user = join(dir.path, "user");
  project = join(dir.path, "project");
  mkdirSync(user);
  mkdirSync(project);
});
afterEach(() => dir.remove());

/** A tool file as a user writes one: `rein/tool` and `valibot` come from rein itself (no node_modules). */
function toolFile(name: string, output = "ok", extra = ""): string {
  return `import * as v from "valibot";
import { defineTool } from "rein/tool";
${extra}
export default defineTool({ name: ${JSON.stringify(name)}, description: "the ${name} tool", input: v.object({ who: v.optional(v.string()) }), run: (input) => ${output} });
`;
}

function write(folder: string, file: string, text: string): string {
  const path = join(folder, file);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const dirs = (...list: [string, ToolDir["source"]][]): ToolDir[] => list.map(([d, source]) => ({ dir: d, source }));
const names = (tools: readonly { tool: Tool }[]) => tools.map((t) => t.tool.name);
const builtin = defineTool({ name: "read", description: "a built-in stand-in", input: v.object({}), run: () => "built-in" });

describe("loading", () => {
  test("built-ins come first, then each folder's tool files in name order, each with where it came from", async () => {
    write(user, "b.ts", toolFile("second"));
    write(user, "a.ts", toolFile("first"));
    write(project, "c.mjs", `export default { name: "third", description: "plain js", input: (await import("valibot")).object({}), run: () => "js" };\n`);
    const registry = new ToolRegistry([builtin], dirs([user, "user"], [project, "project"]));
    const { tools, errors } = await registry.list();
    expect(errors).toEqual([]);
    expect(tools.map((t) => [t.tool.name, t.source, t.file])).toEqual([
      ["read", "built-in", undefined],
      ["first", "user", join(user, "a.ts")],
      ["second", "user", join(user, "b.ts")],
      ["third", "project", join(project, "c.mjs")],
    ]);
    expect([...registry.fileTools()]).toEqual([
      ["first", join(user, "a.ts")],
      ["second", join(user, "b.ts")],
      ["third", join(project, "c.mjs")],
    ]);
  });

  test("a loaded tool runs: its input is the model's, its output is what run returned", async () => {
    write(user, "hello.ts", toolFile("hello", "`hello ${input.who ?? 'nobody'}`"));
    const [tool] = await new ToolRegistry([], dirs([user, "user"])).tools();
    expect(await tool!.run({ who: "ada" }, toolContext(dir.path))).toBe("hello ada");
  });

  test("tool files get rein's own rein/tool and valibot (the same modules), with no node_modules beside them", async () => {
    const shared = globalThis as { reinDefine?: unknown; reinObject?: unknown };
    shared.reinDefine = defineTool;
    shared.reinObject = v.object;
    write(user, "same.ts", toolFile("same", "String(defineTool === globalThis.reinDefine && v.object === globalThis.reinObject)"));
    const [tool] = await new ToolRegistry([], dirs([user, "user"])).tools();
    expect(await tool!.run({}, toolContext(dir.path))).toBe("true");
    // rein's valibot checks the tool's schema: the model's input is validated by the same instance
    expect(v.safeParse(tool!.input, { who: 3 }).success).toBe(false);
    expect(v.safeParse(tool!.input, { who: "ada" }).success).toBe(true);
  });

  test("only top-level .ts/.mts/.js/.mjs files are tools: declarations, other files and subfolders are not", async () => {
    write(user, "tool.ts", toolFile("tool"));
    write(user, "types.d.ts", "export type X = number;\n");
    write(user, "notes.md", "# not a tool\n");
    write(user, "data.json", "{}\n");
    write(user, "lib/helper.ts", toolFile("helper"));
    const { tools, errors } = await new ToolRegistry([], dirs([user, "user"])).list();
    expect(names(tools)).toEqual(["tool"]);
    expect(errors).toEqual([]);
  });

  test("a folder that does not exist, or is a file, holds no tools and no error", async () => {
    write(dir.path, "a-file", "");
    const registry = new ToolRegistry([builtin], dirs([join(dir.path, "missing"), "user"], [join(dir.path, "a-file"), "project"]));
    expect(await registry.list()).toEqual({ tools: [{ tool: builtin, source: "built-in" }], errors: [] });
  });
});

describe("failures are data", () => {
  const cases: [string, string, string][] = [
    ["no default export", "export const x = 1;\n", "the default export is not a tool: export default defineTool({ name, description, input, run })"],
    ["a name with a space", toolFile("two words"), 'the tool\'s name must be a word of letters, digits, _ or - (got "two words")'],
    ["no description", `import * as v from "valibot";\nexport default { name: "quiet", description: " ", input: v.object({}), run: () => "" };\n`, 'tool "quiet" has no description'],
    ["an input that is not a schema", `export default { name: "loose", description: "d", input: { path: "string" }, run: () => "" };\n`, 'tool "loose": input must be a valibot schema, e.g. v.object({ path: v.string() })'],
    ["no run", `import * as v from "valibot";\nexport default { name: "idle", description: "d", input: v.object({}) };\n`, 'tool "idle" has no run function'],
    ["permissions that are not a function", `import * as v from "valibot";\nexport default { name: "perm", description: "d", input: v.object({}), run: () => "", permissions: ["read"] };\n`, 'tool "perm": permissions must be a function'],
    ["a top-level throw", `throw new Error("no config here");\n`, "no config here"],
  ];
  for (const [what, text, reason] of cases) {
    test(`${what}: the file is named with the reason, and the other tools load`, async () => {
      const bad = write(user, "bad.ts", text);
      write(user, "good.ts", toolFile("good"));
      const { tools, errors } = await new ToolRegistry([], dirs([user, "user"])).list();
      expect(names(tools)).toEqual(["good"]);
      expect(errors).toEqual([{ file: bad, reason }]);
    });
  }

  test("a syntax error names its file, line and column", async () => {
    const bad = write(user, "broken.ts", `import * as v from "valibot";\n\nexport default {\n  name: "x",,\n};\n`);
    const { errors } = await new ToolRegistry([], dirs([user, "user"])).list();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: bad, line: 4 });
    expect(errors[0]!.column).toBeGreaterThan(0);
    expect(errors[0]!.reason.length).toBeGreaterThan(0);
  });

  test("a file that fails and a file that loads in one folder: a bad file never costs the folder", async () => {
    const bad = write(user, "a-bad.ts", "export default { name: 1 };\n");
    write(user, "b-good.ts", toolFile("good"));
    write(project, "c.ts", toolFile("other"));
    const { tools, errors } = await new ToolRegistry([], dirs([user, "user"], [project, "project"])).list();
    expect(tools.map((t) => [t.tool.name, t.source])).toEqual([["good", "user"], ["other", "project"]]);
    expect(errors).toEqual([{ file: bad, reason: "the tool's name must be a word of letters, digits, _ or - (got 1)" }]);
  });

  test("a name a built-in has, or an earlier folder's tool has, is refused with whose it is", async () => {
    const shadow = write(user, "read.ts", toolFile("read"));
    const first = write(user, "mine.ts", toolFile("mine"));
    const again = write(project, "mine.ts", toolFile("mine"));
    const { tools, errors } = await new ToolRegistry([builtin], dirs([user, "user"], [project, "project"])).list();
    expect(tools.map((t) => [t.tool.name, t.source])).toEqual([["read", "built-in"], ["mine", "user"]]);
    expect(errors).toEqual([
      { file: shadow, reason: 'the name "read" is already used by a built-in tool; rename this tool' },
      { file: again, reason: `the name "mine" is already used by ${first}; rename this tool` },
    ]);
  });

  test("onErrors hears of a load with failures, once per load, and not of a clean one", async () => {
    const heard: (readonly LoadError[])[] = [];
    const bad = write(user, "bad.ts", "export default 42;\n");
    const registry = new ToolRegistry([], dirs([user, "user"]), (errors) => heard.push(errors));
    await registry.list();
    await registry.list(); // nothing changed: no second load, no second report
    expect(heard.map((errors) => errors.map((e) => e.file))).toEqual([[bad]]);
    expect(registry.errors().map((e) => e.file)).toEqual([bad]);
    rmSync(bad);
    expect((await registry.list()).errors).toEqual([]);
    expect(heard).toHaveLength(1);
  });
});

describe("hot reload", () => {
  test("an edited tool is loaded again before the next turn; an unchanged folder is not", async () => {
    const file = write(user, "greet.ts", toolFile("greet", '"hello"'));
    const registry = new ToolRegistry([], dirs([user, "user"]));
    const ctx = toolContext(dir.path);
    expect(await (await registry.tools())[0]!.run({}, ctx)).toBe("hello");
    expect(await registry.refresh()).toBe(false);
    writeFileSync(file, toolFile("greet", '"hello again"'));
    expect(await registry.refresh()).toBe(true);
    expect(await (await registry.tools())[0]!.run({}, ctx)).toBe("hello again");
  });

  test("a change in a helper a tool imports reloads the tool with the new helper", async () => {
    const helper = write(user, "lib/words.ts", `export const word = "one";\n`);
    write(user, "say.ts", toolFile("say", "word", `import { word } from "./lib/words.ts";`));
    const registry = new ToolRegistry([], dirs([user, "user"]));
    const ctx = toolContext(dir.path);
    expect(await (await registry.tools())[0]!.run({}, ctx)).toBe("one");
    writeFileSync(helper, `export const word = "three";\n`);
    expect(await (await registry.tools())[0]!.run({}, ctx)).toBe("three");
  });

  test("a tool added, then removed, comes and goes; a fixed file loads and its error is gone", async () => {
    const registry = new ToolRegistry([], dirs([user, "user"]));
    expect(await registry.tools()).toEqual([]);
    const added = write(user, "new.ts", "export default null;\n");
    expect((await registry.list()).errors.map((e) => e.file)).toEqual([added]);
    writeFileSync(added, toolFile("fresh"));
    expect(await registry.list()).toMatchObject({ tools: [{ tool: { name: "fresh" } }], errors: [] });
    rmSync(added);
    expect(await registry.tools()).toEqual([]);
  });
});

describe("providers", () => {
  const mcpTool = (name: string) => defineTool({ name, description: `${name} from a server`, input: v.object({}), run: () => name });

  test("a provider's tools come after the files', asked again each time; a name already taken is left out", async () => {
    write(user, "mine.ts", toolFile("mine"));
    const registry = new ToolRegistry([builtin], dirs([user, "user"]));
    let offered = [mcpTool("mcp__a__one"), mcpTool("read"), mcpTool("mine")];
    registry.addSource({ source: "mcp", tools: () => offered });
    expect((await registry.list()).tools.map((t) => [t.tool.name, t.source])).toEqual([
      ["read", "built-in"],
      ["mine", "user"],
      ["mcp__a__one", "mcp"],
    ]);
    offered = [mcpTool("mcp__a__two")];
    expect(names((await registry.list()).tools)).toEqual(["read", "mine", "mcp__a__two"]);
  });

  test("two providers: the first to offer a name keeps it; an async provider is awaited", async () => {
    const registry = new ToolRegistry([], []);
    registry.addSource({ source: "mcp", tools: async () => [mcpTool("shared"), mcpTool("left")] });
    registry.addSource({ source: "mcp", tools: () => [mcpTool("shared"), mcpTool("right")] });
    const tools = await registry.tools();
    expect(tools.map((t) => t.name)).toEqual(["shared", "left", "right"]);
    expect(await tools[0]!.run({}, toolContext(dir.path))).toBe("shared");
  });
});

test("the built-in tools, run from source, are the tool modules in the order the model sees them", () => {
  expect(builtinTools().map((t) => t.name)).toEqual(["bash", "read", "write", "edit", "glob", "grep", "list", "webfetch", "todo", "history"]);
});
