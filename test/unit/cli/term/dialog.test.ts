import { describe, expect, test } from "bun:test";
import chalk from "chalk";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveAllowRules } from "../../../../src/config/save-rules.ts";
import { formatRule } from "../../../../src/session/rules.ts";
import { type AskEvent, alwaysRules, choiceFor, dialogOptions, dialogRows, targetFile } from "../../../../src/cli/term/dialog.ts";
import type { Key } from "../../../../src/cli/term/keys.ts";

chalk.level = 0;

// Requests as the permission engine makes them: some carry why they ask (`fixed`, `reason`).
const plain = { permission: "bash", pattern: "npm test", always: ["npm test *"] };
const destructive = { permission: "bash", pattern: "rm -rf build", always: ["rm -rf build"], destructive: true };
const opaque = { permission: "bash", pattern: "$(cat list)", always: [], opaque: true, reason: "a command substitution" };
const unexplainedOpaque = { permission: "bash", pattern: "eval $X", always: [], opaque: true };
const sensitive = { permission: "read", pattern: "/home/u/proj/.env", always: [], fixed: { action: "ask" as const, reason: "a sensitive file (.env)" } };

function ask(requests: AskEvent["requests"], extra: { tool?: string; reason?: string } = {}): AskEvent {
  return {
    type: "permission_ask",
    id: "ask-1",
    tool_use_id: "toolu_01",
    tool: extra.tool ?? "bash",
    requests,
    ...(extra.reason ? { reason: extra.reason } : {}),
    session_id: "ses_test",
    seq: 7,
  };
}

const withAlways = ask([plain, destructive]);
const withoutAlways = ask([opaque]);
const key = (text: string): Key => ({ name: "text", text });

/** The rows as one text, wrapping undone. */
const joined = (rows: string[]) => rows.join(" ").replace(/\s+/g, " ");

describe("alwaysRules", () => {
  test("one rule per always pattern of every request, with its permission", () => {
    const many = ask([plain, destructive, opaque, { permission: "edit", pattern: "src/a.ts", always: ["src/*", "src/a.ts"] }]);
    expect(alwaysRules(many)).toEqual([
      { permission: "bash", pattern: "npm test *" },
      { permission: "bash", pattern: "rm -rf build" },
      { permission: "edit", pattern: "src/*" },
      { permission: "edit", pattern: "src/a.ts" },
    ]);
  });

  test("none when no request has an always pattern", () => {
    expect(alwaysRules(withoutAlways)).toEqual([]);
  });
});

describe("dialogOptions", () => {
  test("trusted: once, the three always choices, no, and no with a message", () => {
    expect(dialogOptions(withAlways, true).map((o) => [o.key, o.choice])).toEqual([
      ["y", "once"],
      ["a", "session"],
      ["p", "project"],
      ["u", "user"],
      ["n", "reject"],
      ["m", "message"],
    ]);
  });

  test("untrusted: no project option", () => {
    expect(dialogOptions(withAlways, false).map((o) => o.key)).toEqual(["y", "a", "u", "n", "m"]);
  });

  test("nothing to save: no always option at all", () => {
    for (const trusted of [true, false]) {
      expect(dialogOptions(withoutAlways, trusted).map((o) => o.choice)).toEqual(["once", "reject", "message"]);
    }
  });

  test("the keys are distinct", () => {
    const keys = dialogOptions(withAlways, true).map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("dialogRows", () => {
  const width = 40;

  test("every row fits in 39 columns, even with long commands and patterns", () => {
    const long = ask([
      { permission: "bash", pattern: `curl ${"https://example.com/".repeat(5)}`, always: [`curl ${"https://example.com/".repeat(5)}`] },
      sensitive,
    ], { reason: "the same call was made 3 times in a row; confirm it should run again" });
    const input = { command: `curl ${"https://example.com/".repeat(5)} | tee /tmp/out.txt && echo done` };
    for (const trusted of [true, false]) {
      const rows = dialogRows(long, input, trusted, width);
      expect(rows.length).toBeGreaterThan(5);
      for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(width - 1);
    }
  });

  test("no colour codes at chalk level 0", () => {
    expect(dialogRows(withAlways, { command: "npm test" }, true, width).join("")).not.toContain("\x1b");
  });

  test("shows the tool and the command", () => {
    const rows = dialogRows(withAlways, { command: "rm -rf build && npm test" }, true, width);
    expect(rows[0]).toBe("? bash wants to:");
    expect(rows).toContain("  rm -rf build && npm test");
  });

  test("an edit shows its change and a write the head of its content before the keys, within the preview's rows", () => {
    const editAsk = ask([{ permission: "edit", pattern: "src/a.ts", always: ["src/*"] }], { tool: "edit" });
    const rows = dialogRows(editAsk, { path: "src/a.ts", old_string: "const b = 2;", new_string: "const b = 3;" }, false, 60);
    expect(rows.slice(0, 4)).toEqual(["? edit wants to:", "  src/a.ts", "  -const b = 2;", "  +const b = 3;"]);
    const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const writeAsk = ask([{ permission: "edit", pattern: "notes.md", always: ["notes.md"] }], { tool: "write" });
    const written = dialogRows(writeAsk, { path: "notes.md", content }, false, 60, 4);
    expect(written.slice(1, 7)).toEqual(["  notes.md", "  +line 1", "  +line 2", "  +line 3", "  +line 4", "  … 26 more lines"]);
    expect(written.join("\n")).toContain("[y] yes, once");
  });

  test("the file an edit or write would change is read: an edit's change is placed in it, a write says whether it replaces one", () => {
    const dir = mkdtempSync(join(tmpdir(), "rein-dialog-"));
    try {
      writeFileSync(join(dir, "a.ts"), "const a = 1;\nconst b = 2;\n");
      const edit = { path: "a.ts", old_string: "const b = 2;", new_string: "const b = 3;" };
      expect(targetFile("edit", edit, dir)).toEqual({ exists: true, text: "const a = 1;\nconst b = 2;\n" });
      expect(targetFile("write", { path: "new.md", content: "x" }, dir)).toEqual({ exists: false });
      expect(targetFile("bash", { command: "ls" }, dir)).toBeUndefined();
      const editAsk = ask([{ permission: "edit", pattern: "a.ts", always: ["a.ts"] }], { tool: "edit" });
      expect(dialogRows(editAsk, edit, false, 60, 12, targetFile("edit", edit, dir)).slice(2, 6)).toEqual(["  @@ -1,2 +1,2 @@", "   const a = 1;", "  -const b = 2;", "  +const b = 3;"]);
      const writeAsk = ask([{ permission: "edit", pattern: "a.ts", always: ["a.ts"] }], { tool: "write" });
      const over = { path: "a.ts", content: "new\n" };
      expect(dialogRows(writeAsk, over, false, 60, 12, targetFile("write", over, dir))[2]).toBe("  (replaces an existing file of 2 lines)");
      const fresh = { path: "b.ts", content: "new\n" };
      expect(dialogRows(writeAsk, fresh, false, 60, 12, targetFile("write", fresh, dir))[2]).toBe("  (a new file)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a multi-line command shows its first 6 lines", () => {
    const command = Array.from({ length: 10 }, (_, i) => `echo ${i}`).join("\n");
    const rows = dialogRows(withAlways, { command }, true, width);
    expect(rows).toContain("  echo 0");
    expect(rows).toContain("  echo 5");
    expect(rows).not.toContain("  echo 6");
  });

  test("a path or url input is shown when there is no command", () => {
    expect(dialogRows(ask([sensitive], { tool: "read" }), { path: "/home/u/proj/.env" }, true, width)).toContain("  /home/u/proj/.env");
    expect(dialogRows(ask([plain], { tool: "webfetch" }), { url: "https://x.dev" }, true, width)).toContain("  https://x.dev");
  });

  test("each request with why it asks", () => {
    const all = ask([plain, opaque, unexplainedOpaque, sensitive]);
    const text = joined(dialogRows(all, { command: "x" }, true, width));
    expect(text).toContain("bash(npm test) asks: no rule allows it");
    expect(text).toContain("bash($(cat list)) asks: a command substitution");
    expect(text).toContain("bash(eval $X) asks: cannot be checked statically");
    expect(text).toContain("read(/home/u/proj/.env) asks: a sensitive file (.env)");
  });

  test("the loop's own reason is shown", () => {
    const repeated = ask([plain], { reason: "the same call repeated" });
    expect(joined(dialogRows(repeated, { command: "npm test" }, true, width))).toContain("the same call repeated");
  });

  test("the exact rules always would save", () => {
    const text = joined(dialogRows(withAlways, { command: "x" }, true, width));
    expect(text).toContain("always saves: bash(npm test *), bash(rm -rf build)");
    expect(joined(dialogRows(withoutAlways, { command: "x" }, true, width))).not.toContain("always saves");
  });

  test("a * pattern is shown as the bare permission, as formatRule writes it and as it is saved", () => {
    const anyUrl = ask([{ permission: "webfetch", pattern: "https://example.com/a", always: ["*"] }, plain], { tool: "webfetch" });
    const dir = mkdtempSync(join(tmpdir(), "rein-dialog-"));
    const saved = saveAllowRules(join(dir, "config.json"), alwaysRules(anyUrl));
    rmSync(dir, { recursive: true });
    expect(saved).toEqual([formatRule({ permission: "webfetch", pattern: "*" }), "bash(npm test *)"]);
    const text = joined(dialogRows(anyUrl, { url: "https://example.com/a" }, true, 80));
    expect(text).toContain(`always saves: ${saved.join(", ")}`);
    expect(text).toContain("always saves: webfetch, bash(npm test *)");
    expect(text).not.toContain("webfetch(*)");
  });

  test("the keys, with the project one only when trusted", () => {
    const trusted = joined(dialogRows(withAlways, { command: "x" }, true, width));
    for (const shown of ["[y] yes, once", "[a] always (this session)", "[p] always (this project)", "[u] always (for me)", "[n] no", "[m] no, and tell it why"]) {
      expect(trusted).toContain(shown);
    }
    const untrusted = joined(dialogRows(withAlways, { command: "x" }, false, width));
    expect(untrusted).not.toContain("[p]");
    expect(untrusted).toContain("[u] always (for me)");
    const nothingToSave = joined(dialogRows(withoutAlways, { command: "x" }, true, width));
    expect(nothingToSave).not.toContain("[a]");
    expect(nothingToSave).toContain("[y] yes, once");
    expect(nothingToSave).toContain("[n] no");
  });
});

describe("choiceFor", () => {
  test("each option's key gives its choice", () => {
    expect(choiceFor(key("y"), withAlways, true)).toBe("once");
    expect(choiceFor(key("a"), withAlways, true)).toBe("session");
    expect(choiceFor(key("p"), withAlways, true)).toBe("project");
    expect(choiceFor(key("u"), withAlways, true)).toBe("user");
    expect(choiceFor(key("n"), withAlways, true)).toBe("reject");
    expect(choiceFor(key("m"), withAlways, true)).toBe("message");
  });

  test("upper case works too", () => {
    expect(choiceFor(key("Y"), withAlways, true)).toBe("once");
    expect(choiceFor(key("N"), withAlways, false)).toBe("reject");
  });

  test("Enter is once, Escape is no", () => {
    expect(choiceFor({ name: "enter" }, withAlways, true)).toBe("once");
    expect(choiceFor({ name: "escape" }, withAlways, false)).toBe("reject");
  });

  test("p in an untrusted workspace gives nothing", () => {
    expect(choiceFor(key("p"), withAlways, false)).toBeUndefined();
    expect(choiceFor(key("u"), withAlways, false)).toBe("user");
  });

  test("an always key when nothing can be saved gives nothing", () => {
    expect(choiceFor(key("a"), withoutAlways, true)).toBeUndefined();
    expect(choiceFor(key("u"), withoutAlways, true)).toBeUndefined();
    expect(choiceFor(key("y"), withoutAlways, true)).toBe("once");
  });

  test("other keys and pasted text give nothing", () => {
    expect(choiceFor(key("x"), withAlways, true)).toBeUndefined();
    expect(choiceFor(key("yes"), withAlways, true)).toBeUndefined();
    expect(choiceFor({ name: "paste", text: "y" }, withAlways, true)).toBeUndefined();
    expect(choiceFor({ name: "up" }, withAlways, true)).toBeUndefined();
    expect(choiceFor({ name: "ctrl-c" }, withAlways, true)).toBeUndefined();
  });
});

describe("what the model wrote is drawn, not run by the terminal", () => {
  test("an escape sequence in a command asked about reaches the dialog as ?", () => {
    const ask = {
      type: "permission_ask" as const,
      id: "ask_x",
      tool_use_id: "toolu_x",
      tool: "bash",
      requests: [{ permission: "bash", pattern: "printf '\x1b]0;pwned\x07'", always: ["printf *"] }],
      session_id: "s_x",
      seq: 1,
    };
    const rows = dialogRows(ask, { command: "printf '\x1b]0;pwned\x07'" }, false, 80);
    expect(rows.join("\n")).not.toMatch(/[\x07\x1b]/);
    expect(rows.join("\n")).toContain("printf '?]0;pwned?'");
  });
});
