// The terminal's slash commands run against a real Session on the fake model and a real store, with
// a host that records what the terminal would print and do: each command's output, the ones that
// hand over to the terminal (clear, compact, serve, exit), what goes to the model, and the usage
// lines for a wrong argument.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import chalk from "chalk";
import { providerSetup } from "../../../../src/llm/setup.ts";
import { completeCommand, runSlash, type SlashHost } from "../../../../src/cli/term/slash.ts";
import { Session } from "../../../../src/session/session.ts";
import type { SlashCommand } from "../../../../src/skills/slash-commands.ts";
import { startKit, type Kit } from "../../../support/session-kit.ts";

let kit: Kit;
const level = chalk.level;
beforeAll(async () => {
  chalk.level = 0;
  kit = await startKit();
});
afterAll(async () => {
  chalk.level = level;
  await kit.close();
});

type Recorded = { printed: string[]; did: string[]; host: SlashHost; session: Session };
let rec: Recorded;

const COMMAND: SlashCommand = { kind: "command", name: "review", description: "Review the diff", source: "project", file: "/p/.claude/commands/review.md", template: "Review $ARGUMENTS", argumentHint: "[FILE]" };
const PLUGIN_COMMAND: SlashCommand = { kind: "command", name: "lint:fix", description: "Fix lint", source: "user", file: "/u/lint/fix.md", template: "Fix", plugin: "lint" };

function host(session: Session, over: Partial<SlashHost> = {}): Recorded {
  const printed: string[] = [];
  const did: string[] = [];
  const base: SlashHost = {
    print: (text) => void printed.push(text),
    session: () => session,
    store: () => kit.store,
    custom: () => [COMMAND, PLUGIN_COMMAND],
    prompts: () => [{ name: "mcp__db__report", description: "A report", argumentHint: "TABLE" }],
    tools: async () => [
      { name: "bash", source: "built-in", description: "Runs a command\nmore lines" },
      { name: "mcp__db__query", source: "mcp", description: "Queries the database" },
    ],
    newSession: () => void did.push("new session"),
    resume: (id) => (did.push(`resume ${id}`), id === "s_missing" ? "no session s_missing here" : undefined),
    compact: async (focus) => void did.push(`compact ${focus ?? "(none)"}`),
    serve: async () => void did.push("serve"),
    exit: () => void did.push("exit"),
    prompt: async (text) => void did.push(`prompt ${text}`),
    ...over,
  };
  return { printed, did, host: base, session };
}

beforeEach(() => {
  rec = host(kit.create().session);
});
const run = (line: string) => runSlash(line, rec.host);
const last = () => rec.printed.at(-1) ?? "";

describe("what is not a command", () => {
  test("a prompt, or a slash that is not at the start, goes to the model as a prompt", async () => {
    expect(await run("fix the tests")).toBe(false);
    expect(await run("see /help")).toBe(false);
    expect(rec.printed).toEqual([]);
  });

  test("an unknown command says so and sends nothing", async () => {
    expect(await run("/frobnicate now")).toBe(true);
    expect(last()).toBe("unknown command /frobnicate (see /help)");
    expect(rec.did).toEqual([]);
  });
});

describe("commands that go to the model", () => {
  test("a custom command and a plugin's are sent as typed, for the session to expand", async () => {
    await run("  /review src/a.ts  ");
    await run("/lint:fix");
    expect(rec.did).toEqual(["prompt /review src/a.ts", "prompt /lint:fix"]);
  });

  test("an MCP prompt is sent even before its server has listed it", async () => {
    await run("/mcp__later__summary x");
    expect(rec.did).toEqual(["prompt /mcp__later__summary x"]);
  });
});

describe("commands the terminal carries out", () => {
  test("/clear, /compact with and without a focus, /serve, /exit and /quit", async () => {
    for (const line of ["/clear", "/compact keep the API notes", "/compact", "/serve", "/exit", "/quit"]) expect(await run(line)).toBe(true);
    expect(rec.did).toEqual(["new session", "compact keep the API notes", "compact (none)", "serve", "exit", "exit"]);
  });

  test("/resume ID resumes; a problem is printed; without an ID it lists the sessions here", async () => {
    await run("/resume s_other");
    expect(rec.printed).toEqual([]);
    await run("/resume s_missing");
    expect(last()).toBe("no session s_missing here");
    await run("/resume");
    expect(rec.did).toEqual(["resume s_other", "resume s_missing"]);
    expect(last()).toContain(`* ${rec.session.id}`);
  });
});

describe("/help", () => {
  test("built-ins with their arguments, then custom commands with where they come from, then MCP prompts, then the keys", async () => {
    await run("/help");
    const lines = last().split("\n");
    expect(lines[0]).toMatch(/^\/help +this list$/);
    expect(lines.find((l) => l.startsWith("/undo "))).toMatch(/^\/undo \[code\|conversation\] \[N\] +undo the last turn/);
    expect(lines.find((l) => l.startsWith("/review"))).toMatch(/^\/review \[FILE\] +Review the diff \(project command\)$/);
    expect(lines.find((l) => l.startsWith("/lint:fix"))).toMatch(/^\/lint:fix +Fix lint \(plugin lint command\)$/);
    expect(lines.find((l) => l.startsWith("/mcp__db__report"))).toMatch(/^\/mcp__db__report TABLE +A report \(MCP prompt\)$/);
    expect(lines.at(-1)).toStartWith("Esc or Ctrl-C stops a turn");
    // the descriptions start in one column
    const column = (l: string) => l.search(/ {2}\S/) + 2;
    expect(new Set(lines.slice(0, 5).map(column)).size).toBe(1);
  });
});

describe("/sessions", () => {
  test("the recent sessions of this folder, the current one starred, and how to continue one", async () => {
    const other = kit.create().session;
    kit.fake.script({ reply: [{ type: "text", text: "ok" }] });
    await other.prompt("the other one");
    await run("/sessions");
    const lines = last().split("\n");
    expect(lines.at(-1)).toBe("continue one with /resume ID (a prefix is enough)");
    expect(lines.some((l) => l.startsWith(`* ${rec.session.id}  `))).toBe(true);
    expect(lines.some((l) => l.startsWith(`  ${other.id}  `) && l.includes("the other one"))).toBe(true);
  });
});

describe("/model", () => {
  const catalog = () => {
    const setup = providerSetup({ entries: [], env: { ANTHROPIC_API_KEY: "k" }, anthropic: { apiKey: "k" } });
    if (typeof setup === "string") throw new Error(setup);
    return setup.models;
  };

  test("a name changes the model from the next turn, an alias says what it stands for, and the store keeps it", async () => {
    rec = host(Session.create(kit.dir.path, { ...kit.options(), models: catalog() }));
    await run("/model claude-haiku-4-5");
    expect(last()).toBe("model: claude-haiku-4-5 from the next turn");
    await run("/model opus");
    expect(last()).toBe("model: claude-opus-5-5 (opus) from the next turn");
    expect(rec.session.model).toBe("claude-opus-5-5");
    expect(kit.store.getSession(rec.session.id)?.model).toBe("claude-opus-5-5");
  });

  test("a name that is no model is refused with the reason, and the model stays", async () => {
    rec = host(Session.create(kit.dir.path, { ...kit.options(), models: catalog() }));
    const before = rec.session.model;
    await run("/model opsu");
    expect(last()).toStartWith('unknown model "opsu"');
    expect(rec.session.model).toBe(before);
  });

  test("without a name: the model in use and each provider's models, the current starred, unready ones marked", async () => {
    rec = host(rec.session, { models: () => [{ provider: "anthropic", ready: true, models: [rec.session.model, "claude-opus-5-5"] }, { provider: "ollama", ready: false, models: [] }] });
    await run("/model");
    expect(last()).toBe(
      [`model: ${rec.session.model} (change it with /model NAME)`, "anthropic:", `  * ${rec.session.model}`, "  claude-opus-5-5", "ollama (no key: not usable yet):", "  any model: ollama/MODEL-ID"].join("\n"),
    );
  });
});

describe("/permissions", () => {
  test("the rules in force with their sources, the built-in ones counted, and no approvals", async () => {
    rec = host(Session.create(kit.dir.path, { ...kit.options({ rules: [{ permission: "read", pattern: "*", action: "allow", source: "built-in default" }, { permission: "bash", pattern: "git *", action: "deny", source: "user config" }] }) }));
    await run("/permissions");
    expect(last()).toBe(
      [
        "rules in force (the last match wins):",
        "  1 built-in rules (read-only commands allowed; see rein permissions explain -- 'COMMAND')",
        "  deny  bash(git *)  user config",
        "approved in this session:",
        "  none",
      ].join("\n"),
    );
  });

  test("approvals are numbered and one can be revoked; a wrong number or argument says how", async () => {
    rec.session.approve([{ permission: "bash", pattern: "npm test *", action: "allow" }, { permission: "edit", pattern: "src/*", action: "allow" }]);
    await run("/permissions");
    expect(last()).toContain("approved in this session:\n  1. bash(npm test *)\n  2. edit(src/*)\nwithdraw one with /permissions revoke N");
    await run("/permissions revoke 1");
    expect(last()).toBe("revoked: bash(npm test *)");
    expect(rec.session.approvals().map((r) => r.pattern)).toEqual(["src/*"]);
    await run("/permissions revoke 5");
    expect(last()).toBe("no approval number 5 (see /permissions)");
    await run("/permissions revoke 0");
    expect(last()).toBe("no approval number 0 (see /permissions)");
    await run("/permissions everything");
    expect(last()).toBe("usage: /permissions [revoke N]");
    expect(rec.session.approvals()).toHaveLength(1);
  });
});

describe("listings", () => {
  test("/tools: name, source and the first line of the description, in columns", async () => {
    await run("/tools");
    expect(last().split("\n")).toEqual(["bash            built-in Runs a command", "mcp__db__query  mcp      Queries the database"]);
  });

  test("/agents: the current one starred; none is said", async () => {
    await run("/agents");
    expect(last()).toBe("no agents");
    rec = host(rec.session, {
      agents: () => [
        { name: "build", mode: "primary", description: "Builds\nthings", source: "built-in", current: true },
        { name: "reviewer", mode: "subagent", description: "Reviews", source: "/p/.claude/agents/reviewer.md", current: false },
      ],
    });
    await run("/agents");
    expect(last().split("\n")).toEqual(["* build     primary   Builds  built-in", "  reviewer  subagent  Reviews  /p/.claude/agents/reviewer.md"]);
  });

  test("/mcp and /lsp with nothing configured say where servers come from", async () => {
    await run("/mcp");
    expect(last()).toBe("no MCP servers configured (see rein mcp add, or docs/mcp.md)");
    await run("/lsp");
    expect(last()).toBe('no language servers configured (the "lsp" config key, or a plugin\'s .lsp.json; see docs/lsp.md)');
  });

  test("/cost: the session's runs and spend", async () => {
    kit.fake.script({ reply: [{ type: "text", text: "ok" }] });
    await rec.session.prompt("hello");
    await run("/cost");
    expect(last()).toStartWith(`session ${rec.session.id}, 1 run: `);
  });
});

describe("/memory", () => {
  test("what the host shows; no memory is said", async () => {
    await run("/memory");
    expect(last()).toBe("no memory in this session");
    rec = host(rec.session, { memory: () => "AGENTS.md (12 lines)" });
    await run("/memory");
    expect(last()).toBe("AGENTS.md (12 lines)");
  });

  test("reload reads again and says what it costs; a failure is its message; a terminal that cannot says so", async () => {
    await run("/memory reload");
    expect(last()).toBe("this terminal cannot reload its instructions");
    let reloads = 0;
    rec = host(rec.session, { reload: () => void reloads++, memory: () => "memory now" });
    await run("/memory reload");
    expect(reloads).toBe(1);
    expect(rec.printed.slice(-2)).toEqual(["memory now", "reloaded into the system prompt from the next turn (its prompt cache starts again once)"]);
    rec = host(rec.session, {
      reload: () => {
        throw new Error("AGENTS.md: cannot read (EACCES)");
      },
    });
    await run("/memory reload");
    expect(last()).toBe("AGENTS.md: cannot read (EACCES)");
  });

  test("edit NAME opens the editor through the host; a bad argument shows the usage", async () => {
    await run("/memory edit api-notes");
    expect(last()).toBe("this terminal cannot open an editor");
    rec = host(rec.session, { editMemory: async (name) => `saved ${name}` });
    await run("/memory edit api-notes");
    expect(last()).toBe("saved api-notes");
    await run("/memory forget");
    expect(last()).toBe("usage: /memory [reload | edit NAME]");
    await run("/memory edit");
    expect(last()).toBe("usage: /memory [reload | edit NAME]");
  });
});

describe("Tab after a slash", () => {
  test("one match is completed with a space; several give their common start and the list", () => {
    expect(completeCommand("/he", rec.host)).toEqual({ text: "/help " });
    expect(completeCommand("/re", rec.host)).toEqual({ text: "/re", hint: "/redo  /resume  /review" });
    expect(completeCommand("/mcp", rec.host)).toEqual({ text: "/mcp", hint: "/mcp  /mcp__db__report" });
    expect(completeCommand("/zzz", rec.host)).toBeUndefined();
    expect(completeCommand("/lint", undefined)).toBeUndefined();
  });
});
