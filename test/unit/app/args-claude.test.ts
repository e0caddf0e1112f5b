// argv for Claude Code's flags and the value checks parseArgs' other test leaves out: mode names
// in Claude Code's words (dontAsk, bypassPermissions), --dangerously-skip-permissions, the lists
// that repeat, --setting-sources, --older-than, --session-id and --fork-session, bool flags given
// a value, and the pairs that cannot go together.
import { describe, expect, test } from "bun:test";
import { parseArgs, UsageError } from "../../../src/app/args.ts";

const usage = (argv: string[]) => {
  try {
    parseArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(" ")}`);
};

describe("Claude Code's permission modes", () => {
  test("acceptEdits and bypassPermissions are rein's accept-edits and auto", () => {
    expect(parseArgs(["-p", "x", "--permission-mode", "acceptEdits"]).permissionMode).toBe("accept-edits");
    expect(parseArgs(["-p", "x", "--permission-mode", "bypassPermissions"]).permissionMode).toBe("auto");
  });

  test("dontAsk is the default mode with nothing asked", () => {
    const args = parseArgs(["-p", "x", "--permission-mode", "dontAsk"]);
    expect(args.permissionMode).toBe("default");
    expect(args.dontAsk).toBe(true);
    expect(parseArgs(["-p", "x", "--permission-mode", "default"]).dontAsk).toBeUndefined();
  });

  test("--dangerously-skip-permissions is auto mode, and refuses another mode beside it", () => {
    expect(parseArgs(["-p", "x", "--dangerously-skip-permissions"]).permissionMode).toBe("auto");
    expect(parseArgs(["-p", "x", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions"]).permissionMode).toBe("auto");
    expect(usage(["-p", "x", "--dangerously-skip-permissions", "--permission-mode", "plan"])).toBe("--dangerously-skip-permissions and --permission-mode plan cannot be used together");
  });
});

describe("lists and values", () => {
  test("list flags repeat and keep their order; both spellings of the tool lists fill one list", () => {
    const args = parseArgs(["-p", "x", "--allowedTools", "Bash(git *)", "--allowed-tools", "Read", "--disallowed-tools", "Write", "--add-dir", "/a", "--add-dir=/b", "--mcp-config", "a.json", "--mcp-config", "b.json"]);
    expect(args.allowedTools).toEqual(["Bash(git *)", "Read"]);
    expect(args.disallowedTools).toEqual(["Write"]);
    expect(args.addDir).toEqual(["/a", "/b"]);
    expect(args.mcpConfig).toEqual(["a.json", "b.json"]);
  });

  test("--max-budget-usd is Claude Code's name for --max-cost", () => {
    expect(parseArgs(["-p", "x", "--max-budget-usd", "1.25"]).maxCost).toBe(1.25);
    expect(usage(["-p", "x", "--max-budget-usd", "-1"])).toBe('--max-budget-usd expects a positive number (US dollars), got "-1"');
  });

  test("--setting-sources takes user, project and local, comma-separated", () => {
    expect(parseArgs(["-p", "x", "--setting-sources", "user, project"]).settingSources).toBe("user, project");
    expect(usage(["-p", "x", "--setting-sources", "user,global"])).toBe('--setting-sources expects a comma-separated list of user, project, local; got "global"');
  });

  test("a value given with = to a flag that takes none is refused; an empty value with = is a value", () => {
    expect(usage(["-p", "x", "--verbose=yes"])).toBe("--verbose takes no value");
    expect(parseArgs(["-p", "x", "--tools="]).tools).toBe("");
  });
});

describe("sessions", () => {
  test("--session-id takes a UUID, kept in lower case", () => {
    expect(parseArgs(["-p", "x", "--session-id", "123E4567-E89B-12D3-A456-426614174000"]).sessionId).toBe("123e4567-e89b-12d3-a456-426614174000");
    expect(usage(["-p", "x", "--session-id", "s_abc"])).toBe('--session-id expects a UUID such as 123e4567-e89b-12d3-a456-426614174000, got "s_abc"');
  });

  test("--fork-session needs a session to fork", () => {
    expect(usage(["-p", "x", "--fork-session"])).toBe("--fork-session needs a session to fork: add -c or -r ID");
    expect(parseArgs(["-p", "x", "-c", "--fork-session"]).forkSession).toBe(true);
  });

  test("--compact does not read stdin", () => {
    expect(usage(["-c", "-p", "--compact", "-"])).toBe('--compact does not read stdin: give the focus as an argument, rein -c -p --compact "FOCUS"');
  });

  test("--older-than takes a whole number of s, m, h, d or w", () => {
    expect(parseArgs(["sessions", "prune", "--older-than", "2w"]).olderThan).toBe(14 * 86_400_000);
    expect(parseArgs(["sessions", "prune", "--older-than", "90m"]).olderThan).toBe(90 * 60_000);
    expect(usage(["sessions", "prune", "--older-than", "1.5d"])).toBe('--older-than expects a duration such as 30d, 12h, 90m or 2w, got "1.5d"');
    expect(usage(["sessions", "prune", "--older-than", "30"])).toContain("expects a duration");
  });
});

describe("what cannot go together", () => {
  test("--system-prompt and its file form", () => {
    expect(usage(["-p", "x", "--system-prompt", "a", "--system-prompt-file", "b"])).toBe("--system-prompt and --system-prompt-file cannot be used together");
  });

  test("-p and --serve; --serve with a prompt", () => {
    expect(usage(["-p", "x", "--serve"])).toBe("-p and --serve cannot be used together");
    expect(usage(["--serve", "hello"])).toBe('unexpected argument "hello": rein --serve takes no prompt or command (see rein --help)');
  });

  test("words not quoted together in the terminal are one usage error", () => {
    expect(usage(["fix", "the", "test"])).toBe('unexpected argument "the" (quote the whole prompt: rein "...")');
  });
});
