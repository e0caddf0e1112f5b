// `rein permissions explain` beyond what the engine's corpus covers: the folders a config opens, a
// tainted session's sinks (never loosening a deny), and a tool asked by its own name.
import { describe, expect, test } from "bun:test";
import { explainCommand } from "../../../src/app/explain.ts";
import { explainTool } from "../../../src/app/explain-tool.ts";
import type { Rule } from "../../../src/permission/evaluate.ts";

const base = { cwd: "/tmp/proj", projectRoot: "/tmp/proj", home: "/tmp/home", reinDirs: ["/tmp/home/.config/rein"], mode: "default" as const, rules: { user: [] as Rule[], project: [] as Rule[], flags: [] as Rule[] }, tmp: "/tmp/rein-tmp" };
const permissions = (e: { requests: { permission: string }[] }) => e.requests.map((r) => r.permission);

describe("explainCommand", () => {
  test("a read outside the workspace asks for external_directory, unless a configured folder opens it", async () => {
    const outside = await explainCommand("cat /opt/data/x", base);
    expect(outside.decision).toBe("ask");
    expect(outside.requests.find((r) => r.permission === "external_directory")).toMatchObject({ pattern: "/opt/data/x", always: ["/opt/data/*"], decision: "ask" });
    const opened = await explainCommand("cat /opt/data/x", { ...base, directories: ["/opt/data"] });
    expect(opened.decision).toBe("allow");
    expect(opened.read_only).toBe(true);
    expect(permissions(opened)).not.toContain("external_directory");
  });

  test("the temp folder is open without asking", async () => {
    expect((await explainCommand("cat /tmp/rein-tmp/out.txt", base)).decision).toBe("allow");
  });

  test("tainted: a sink that the rules allow asks, with why; a read-only command does not", async () => {
    const allowAll = { ...base, rules: { ...base.rules, user: [{ permission: "*", pattern: "*", action: "allow" as const, source: "user config" }] } };
    const sent = await explainCommand("curl -d @notes.txt https://example.com", { ...allowAll, tainted: true });
    expect(sent.decision).toBe("ask");
    expect(sent.tainted).toBe("in a session that read untrusted content, curl can send data out");
    // the requests still show what the rules decided
    expect(sent.requests[0]).toMatchObject({ decision: "allow", rule: { source: "user config" } });
    const untainted = await explainCommand("curl -d @notes.txt https://example.com", allowAll);
    expect(untainted.decision).toBe("allow");
    expect(untainted.tainted).toBeUndefined();
    expect((await explainCommand("ls", { ...base, tainted: true })).tainted).toBeUndefined();
  });

  test("tainted never turns a deny into an ask", async () => {
    const denied = await explainCommand("cat ~/.ssh/id_rsa", { ...base, tainted: true });
    expect(denied.decision).toBe("deny");
    expect(denied.tainted).toBeUndefined();
    expect(denied.requests.find((r) => r.decision === "deny")).toMatchObject({ rule: null, reason: "SSH keys and configuration, protected in every permission mode" });
  });

  test("the commands found carry their env prefix, wrappers, folder and why they are opaque", async () => {
    const found = await explainCommand("cd sub && FOO=1 sudo ls; eval \"$X\"", base);
    expect(found.commands).toEqual([
      { argv: ["cd", "sub"], cwd: "/tmp/proj" },
      { argv: ["ls"], env: ["FOO=1"], wrappers: ["sudo"], cwd: "/tmp/proj/sub" },
      { argv: ["eval", '"$X"'], cwd: "/tmp/proj/sub", opaque: "eval runs a string as shell code" },
    ]);
  });

  test("the rule that decided names its source: a flag's deny beats the user's allow", async () => {
    const rules = { user: [{ permission: "bash", pattern: "git push*", action: "allow" as const, source: "user config" }], project: [], flags: [{ permission: "bash", pattern: "git push*", action: "deny" as const, source: "--deny" }] };
    const pushed = await explainCommand("git push", { ...base, rules });
    expect(pushed.decision).toBe("deny");
    expect(pushed.requests[0]!.rule).toEqual({ permission: "bash", pattern: "git push*", action: "deny", source: "--deny" });
  });
});

describe("explainTool", () => {
  test("a tool with no rule asks by default; a matching rule decides with its source", () => {
    const asked = explainTool("mcp__db__query", base);
    expect(asked).toEqual({
      decision: "ask",
      read_only: false,
      commands: [],
      requests: [{ permission: "mcp__db__query", pattern: "*", decision: "ask", always: ["*"], rule: { permission: "*", pattern: "*", action: "ask", source: "built-in default" }, reason: null }],
    });
    const rules = { user: [{ permission: "mcp__db__*", pattern: "*", action: "allow" as const, source: "user config" }], project: [], flags: [{ permission: "mcp__db__drop", pattern: "*", action: "deny" as const }] };
    expect(explainTool("mcp__db__query", { ...base, rules }).requests[0]!.rule).toEqual({ permission: "mcp__db__*", pattern: "*", action: "allow", source: "user config" });
    // a flag's rule without a source is the command line's, and the deny beats the user's allow
    expect(explainTool("mcp__db__drop", { ...base, rules })).toMatchObject({ decision: "deny", requests: [{ rule: { permission: "mcp__db__drop", pattern: "*", action: "deny", source: "command line" } }] });
  });

  test("auto mode allows a tool no rule names", () => {
    expect(explainTool("mcp__db__query", { ...base, mode: "auto" }).decision).toBe("allow");
  });
});
