// Claude Code's print-mode flags read into a run: --tools, the system prompt flags and their -file
// forms, --agents JSON (written as agent files and read back by the real agent parser, so what was
// given is what the agent gets) and --mcp-config. Every bad value is one usage error line naming it.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAgentFile } from "../../../src/agents/parse.ts";
import { parseArgs, UsageError } from "../../../src/app/args.ts";
import { inlineAgents, mcpConfigServers, offeredOnly, systemPromptFlags } from "../../../src/app/claude-flags.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeEach(() => (dir = tempDir("rein-claude-flags-")));
afterEach(() => dir.remove());

const args = (...argv: string[]) => parseArgs(["-p", "x", ...argv]);
const usage = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a usage error");
};

describe("--tools", () => {
  test("Claude Code's names become rein's, separated by commas or spaces", () => {
    expect(offeredOnly(args("--tools", "Bash,Read"))).toEqual(["bash", "read"]);
    expect(offeredOnly(args("--tools", "Edit  Write, Glob,,Grep"))).toEqual(["edit", "write", "glob", "grep"]);
    expect(offeredOnly(args("--tools", "WebFetch"))).toEqual(["webfetch"]);
  });

  test("rein's own names and names rein does not know are kept as given", () => {
    expect(offeredOnly(args("--tools", "bash,mcp__db__query"))).toEqual(["bash", "mcp__db__query"]);
  });

  test('"" offers no tool, "default" and no flag restrict nothing', () => {
    expect(offeredOnly(args("--tools", ""))).toEqual([]);
    expect(offeredOnly(args("--tools", " default "))).toBeUndefined();
    expect(offeredOnly(args())).toBeUndefined();
  });
});

describe("the system prompt flags", () => {
  test("--system-prompt replaces; both append flags are joined by a blank line, the inline one first", () => {
    writeFileSync(join(dir.path, "more.md"), "From the file.");
    expect(systemPromptFlags(args("--system-prompt", "Only this."), dir.path)).toEqual({ replace: "Only this." });
    expect(systemPromptFlags(args("--append-system-prompt-file", "more.md", "--append-system-prompt", "Inline."), dir.path)).toEqual({ append: "Inline.\n\nFrom the file." });
    expect(systemPromptFlags(args(), dir.path)).toEqual({});
  });

  test("the -file forms read relative to the working folder, whole and as written", () => {
    const text = "Line one.\n\n  indented: kept\n";
    writeFileSync(join(dir.path, "system.md"), text);
    expect(systemPromptFlags(args("--system-prompt-file", "system.md"), dir.path)).toEqual({ replace: text });
    expect(systemPromptFlags(args("--system-prompt-file", join(dir.path, "system.md")), "/")).toEqual({ replace: text });
  });

  test("an empty --system-prompt is a replacement with nothing, not no flag", () => {
    expect(systemPromptFlags(args("--system-prompt", ""), dir.path)).toEqual({ replace: "" });
  });

  test("a file that cannot be read names the flag, the path and the reason", () => {
    expect(usage(() => systemPromptFlags(args("--system-prompt-file", "gone.md"), dir.path))).toBe("--system-prompt-file gone.md: cannot read the file (ENOENT)");
    expect(usage(() => systemPromptFlags(args("--append-system-prompt-file", "."), dir.path))).toBe("--append-system-prompt-file .: cannot read the file (EISDIR)");
  });
});

describe("--agents", () => {
  const read = (json: string) =>
    inlineAgents(args("--agents", json))!.map((file) => parseAgentFile({ ...file, format: "rein", project: false }));

  test("each entry is an agent file whose fields are the JSON's and whose body is the prompt", () => {
    const [parsed] = read(JSON.stringify({ reviewer: { description: "Reviews code", prompt: "Review the diff.\nBe brief.", tools: ["Read", "Grep"], model: "sonnet", maxTurns: 3 } }));
    expect(parsed!.warning).toBeUndefined();
    expect(parsed!.agent).toMatchObject({ name: "reviewer", description: "Reviews code", model: "sonnet", maxTurns: 3, tools: ["read", "grep"] });
    expect(parsed!.agent!.prompt.trim()).toBe("Review the diff.\nBe brief.");
  });

  test("a description with quotes, colons, a hash and a newline survives the front matter", () => {
    const description = 'Use for "hard" bugs: the #1 tool\nsecond line';
    const [parsed] = read(JSON.stringify({ tricky: { description, prompt: "p" } }));
    expect(parsed!.notes).toEqual([]);
    expect(parsed!.agent!.description).toBe(description);
  });

  test("the entry's key is its name even when a name field says otherwise; several agents keep their order", () => {
    const files = inlineAgents(args("--agents", JSON.stringify({ b: { description: "B", prompt: "b" }, a: { description: "A", prompt: "a" } })))!;
    expect(files.map((f) => [f.id, f.path])).toEqual([["b", "--agents (b)"], ["a", "--agents (a)"]]);
    const [named] = read(JSON.stringify({ key: { name: "other", description: "D", prompt: "p" } }));
    // the spread puts the JSON's own name after the key's: it is the name the agent gets
    expect(named!.agent!.name).toBe("other");
  });

  test("a prompt that is not a string is an empty body; an agent without a description is skipped with a warning", () => {
    const [noPrompt] = read(JSON.stringify({ quiet: { description: "Q", prompt: 42 } }));
    expect(noPrompt!.agent!.prompt.trim()).toBe("");
    const [noDescription] = read(JSON.stringify({ bare: { prompt: "p" } }));
    expect(noDescription!.agent).toBeUndefined();
    expect(noDescription!.warning).toBe("agent file --agents (bare) skipped: it has no `description` (say in one line what the agent is for)");
  });

  test("bad JSON, a non-object and an entry that is not an object are usage errors", () => {
    expect(usage(() => inlineAgents(args("--agents", "{reviewer")))).toStartWith("--agents: not valid JSON (");
    expect(usage(() => inlineAgents(args("--agents", '["reviewer"]')))).toBe("--agents: expected a JSON object");
    expect(usage(() => inlineAgents(args("--agents", "null")))).toBe("--agents: expected a JSON object");
    expect(usage(() => inlineAgents(args("--agents", '{"r": "Reviews"}')))).toBe('--agents: agent "r" must be an object like {"description": "...", "prompt": "..."}');
    expect(usage(() => inlineAgents(args("--agents", '{"r": ["x"]}')))).toContain('agent "r" must be an object');
  });

  test("no flag is no inline agent; {} is none", () => {
    expect(inlineAgents(args())).toBeUndefined();
    expect(inlineAgents(args("--agents", "{}"))).toEqual([]);
  });
});

describe("--mcp-config", () => {
  test("files and inline JSON, with or without the mcpServers wrapper; a later one wins a name", () => {
    writeFileSync(join(dir.path, "a.json"), JSON.stringify({ mcpServers: { db: { command: "db-a" }, files: { command: "files" } } }));
    writeFileSync(join(dir.path, "b.json"), JSON.stringify({ db: { command: "db-b" } }));
    const servers = mcpConfigServers(args("--mcp-config", "a.json", "--mcp-config", "b.json", "--mcp-config", ' {"web": {"url": "http://127.0.0.1:1/mcp"}}'), dir.path);
    expect(servers).toEqual({ db: { command: "db-b" }, files: { command: "files" }, web: { url: "http://127.0.0.1:1/mcp" } });
  });

  test("a file's bad JSON names the file; inline bad JSON says so without one", () => {
    writeFileSync(join(dir.path, "broken.json"), "{ not json");
    expect(usage(() => mcpConfigServers(args("--mcp-config", "broken.json"), dir.path))).toStartWith("--mcp-config broken.json: not valid JSON (");
    expect(usage(() => mcpConfigServers(args("--mcp-config", "{ nope"), dir.path))).toStartWith("--mcp-config: not valid JSON (");
    expect(usage(() => mcpConfigServers(args("--mcp-config", "missing.json"), dir.path))).toBe("--mcp-config missing.json: cannot read the file (ENOENT)");
  });

  test("mcpServers that is not an object of servers is refused with the shape expected", () => {
    writeFileSync(join(dir.path, "list.json"), JSON.stringify({ mcpServers: ["db"] }));
    expect(usage(() => mcpConfigServers(args("--mcp-config", "list.json"), dir.path))).toBe('--mcp-config list.json: expected {"mcpServers": {"NAME": {...}}}');
    expect(usage(() => mcpConfigServers(args("--mcp-config", '{"mcpServers": null}'), dir.path))).toBe('--mcp-config JSON: expected {"mcpServers": {"NAME": {...}}}');
    writeFileSync(join(dir.path, "array.json"), "[1, 2]");
    expect(usage(() => mcpConfigServers(args("--mcp-config", "array.json"), dir.path))).toBe("--mcp-config array.json: expected a JSON object");
  });

  test("no flag, no servers", () => {
    expect(mcpConfigServers(args(), dir.path)).toEqual({});
  });
});
