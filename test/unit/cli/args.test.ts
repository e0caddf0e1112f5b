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

describe("parseArgs", () => {
  test("print mode takes the prompt as its positional", () => {
    const args = parseArgs(["-p", "say ok", "--output-format", "json", "-m", "claude-haiku-4-5"]);
    expect(args.print).toBe(true);
    expect(args.prompt).toBe("say ok");
    expect(args.outputFormat).toBe("json");
    expect(args.model).toBe("claude-haiku-4-5");
  });

  test("--compact: the positional is the focus, not a prompt; it needs print mode and a session to resume", () => {
    expect(parseArgs(["-c", "-p", "--compact"])).toMatchObject({ compact: true, continue: true, print: true });
    expect(parseArgs(["-c", "-p", "--compact"]).focus).toBeUndefined();
    const focused = parseArgs(["-r", "s_1", "-p", "--compact", "the parser"]);
    expect(focused).toMatchObject({ compact: true, resume: "s_1", focus: "the parser" });
    expect(focused.prompt).toBeUndefined();
    expect(usage(["--compact", "-c"])).toContain("--compact works in print mode: rein -c -p --compact [FOCUS]");
    expect(usage(["-p", "--compact"])).toContain("--compact needs a session to compact: rein -c -p --compact [FOCUS]");
    expect(usage(["-c", "-p", "--compact", "a", "b"])).toBe('unexpected argument "b" (quote the whole focus: rein -c -p --compact "...")');
    expect(usage(["-c", "-p", "--compact", "-"])).toContain("--compact does not read stdin");
    expect(usage(["-c", "-p", "--compact=yes"])).toBe("--compact takes no value");
  });

  test("repeatable rules keep their order, and --flag=value works", () => {
    const args = parseArgs(["-p", "x", "--allow", "bash(npm test *)", "--allow=edit", "--deny", "bash(git push *)"]);
    expect(args.allow).toEqual(["bash(npm test *)", "edit"]);
    expect(args.deny).toEqual(["bash(git push *)"]);
  });

  test("numbers and choices are checked", () => {
    expect(parseArgs(["-p", "x", "--max-turns", "3"]).maxTurns).toBe(3);
    expect(usage(["-p", "x", "--max-turns", "abc"])).toBe('--max-turns expects a positive integer, got "abc"');
    expect(usage(["-p", "x", "--max-turns", "0"])).toContain("positive integer");
    expect(parseArgs(["-p", "x", "--max-cost", "0.5"]).maxCost).toBe(0.5);
    expect(parseArgs(["-p", "x", "--max-cost=2"]).maxCost).toBe(2);
    expect(usage(["-p", "x", "--max-cost", "abc"])).toBe('--max-cost expects a positive number (US dollars), got "abc"');
    expect(usage(["-p", "x", "--max-cost", "0"])).toContain("positive number");
    expect(usage(["-p", "x", "--output-format", "xml"])).toBe('--output-format expects one of text, json, stream-json, claude-stream-json, claude-json, got "xml"');
    expect(usage(["--permission-mode", "yolo"])).toContain("default, plan, accept-edits, auto");
    expect(usage(["--port", "70000"])).toContain("0-65535");
  });

  test("an unknown flag names itself and suggests the nearest", () => {
    expect(usage(["--modle", "x"])).toBe("unknown option --modle (did you mean --model? see rein --help)");
    expect(usage(["--frobnicate"])).toBe("unknown option --frobnicate (see rein --help)");
  });

  test("a flag missing its value, and a stray second prompt, are usage errors", () => {
    expect(usage(["-p", "x", "--model"])).toBe("--model needs a value");
    expect(usage(["-p", "one", "two"])).toContain('unexpected argument "two"');
    expect(usage(["-c", "-r", "abc"])).toContain("cannot be used together");
  });

  test("subcommands are positionals; -- ends the flags", () => {
    const args = parseArgs(["permissions", "explain", "--json", "--", "git", "push", "--force"]);
    expect(args.command).toEqual(["permissions", "explain", "git", "push", "--force"]);
    expect(args.json).toBe(true);
  });

  test("without -p a quoted prompt starts the terminal with it; a typo of a command or unquoted words are usage errors", () => {
    const args = parseArgs(["-c", "fix the test"]);
    expect(args).toMatchObject({ print: false, continue: true, prompt: "fix the test", command: [] });
    expect(parseArgs(["hello"]).prompt).toBe("hello");
    expect(parseArgs(["doctor"]).command).toEqual(["doctor"]);
    expect(parseArgs(["doctor"]).prompt).toBeUndefined();
    expect(usage(["sesions"])).toBe('unknown command "sesions" (did you mean sessions?)');
    expect(usage(["fix", "the", "test"])).toBe('unexpected argument "the" (quote the whole prompt: rein "...")');
  });

  test("- as the prompt means stdin", () => {
    expect(parseArgs(["-p", "-"]).prompt).toBe("-");
  });

  test("a subcommand given more arguments than it reads is a usage error", () => {
    expect(usage(["sessions", "rm", "A", "B"])).toBe('unexpected argument "B": rein sessions rm takes one argument (remove sessions one at a time)');
    expect(usage(["sessions", "list", "extra"])).toBe('unexpected argument "extra": rein sessions list takes no arguments');
    expect(usage(["sessions", "show", "A", "B"])).toContain('unexpected argument "B"');
    expect(usage(["tools", "list", "x"])).toContain('unexpected argument "x"');
    expect(usage(["tools", "init", "user", "x"])).toContain('unexpected argument "x"');
    expect(usage(["doctor", "now"])).toBe('unexpected argument "now": rein doctor takes no arguments');
    expect(usage(["--serve", "fix it"])).toBe('unexpected argument "fix it": rein --serve takes no prompt or command (see rein --help)');
    expect(usage(["--serve", "sessions"])).toContain('unexpected argument "sessions"');
    expect(parseArgs(["sessions", "rm", "A"]).command).toEqual(["sessions", "rm", "A"]);
    expect(parseArgs(["permissions", "explain", "--", "git", "push"]).command).toHaveLength(4);
  });

  test("a flag that does nothing in the mode it is given in is a usage error", () => {
    expect(usage(["--output-format", "json"])).toBe("--output-format does nothing in the terminal; it works with -p (print mode) (see rein --help)");
    expect(usage(["--on-ask", "fail", "sessions", "list"])).toContain("--on-ask does nothing with rein sessions list");
    expect(usage(["-p", "hi", "--port", "1"])).toContain("--port does nothing with -p (print mode); it works with --serve");
    expect(usage(["sessions", "list", "--format", "md"])).toContain("it works with rein sessions export");
    expect(usage(["sessions", "rm", "A", "--yes"])).toContain("--yes does nothing with rein sessions rm");
    expect(usage(["doctor", "--allow", "edit"])).toContain("--allow does nothing with rein doctor");
    expect(usage(["-p", "hi", "--serve"])).toBe("-p and --serve cannot be used together");
    expect(parseArgs(["-p", "hi", "--output-format", "json", "--cwd", "/tmp"]).outputFormat).toBe("json");
    expect(parseArgs(["sessions", "export", "A", "--format", "json"]).format).toBe("json");
    expect(parseArgs(["sessions", "--json"]).json).toBe(true);
    expect(parseArgs(["permissions", "explain", "--allow", "edit", "--json", "--", "ls"]).allow).toEqual(["edit"]);
    expect(parseArgs(["--serve", "--port", "0", "--allow", "edit"]).port).toBe(0);
  });
});
