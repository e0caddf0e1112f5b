import { describe, expect, test } from "bun:test";
import chalk from "chalk";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveAllowRules } from "../../../../src/config/save-rules.ts";
import { formatRule } from "../../../../src/app/rules.ts";
import { type AskEvent, alwaysRules, dialogOptions, dialogRows, folderRules, targetFile } from "../../../../src/cli/term/dialog.ts";
import { ANSWER_GRACE_MS, DialogKeys } from "../../../../src/cli/term/dialog-keys.ts";
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
  test("trusted: numbered yes, the three always choices, no, and no with a message", () => {
    expect(dialogOptions(withAlways, true).map((o) => [o.key, o.choice])).toEqual([
      ["1", "once"],
      ["2", "session"],
      ["3", "project"],
      ["4", "user"],
      ["5", "reject"],
      ["6", "message"],
    ]);
  });

  test("untrusted: no project option", () => {
    expect(dialogOptions(withAlways, false).map((o) => o.choice)).toEqual(["once", "session", "user", "reject", "message"]);
  });

  test("nothing to save: no always option at all", () => {
    for (const trusted of [true, false]) {
      expect(dialogOptions(withoutAlways, trusted).map((o) => o.choice)).toEqual(["once", "reject", "message"]);
    }
  });

  test("a file edit offers its folder and every edit of the session", () => {
    const edit = ask([{ permission: "edit", pattern: "/w/src/a.ts", always: ["/w/src/a.ts"] }, { permission: "external_directory", pattern: "/w/src/a.ts", always: ["/w/src/*"] }], { tool: "edit" });
    const options = dialogOptions(edit, false);
    expect(options.map((o) => o.choice)).toEqual(["once", "folder", "edits", "session", "user", "reject", "message"]);
    expect(options[1]!.label).toBe("Yes, and allow edits in /w/src/ this session");
    expect(options[2]!.label).toBe("Yes, allow all edits this session (shift+tab)");
    expect(folderRules(edit)).toEqual([{ permission: "edit", pattern: "/w/src/*" }, { permission: "external_directory", pattern: "/w/src/*" }]);
    expect(dialogOptions(ask([plain]), false).map((o) => o.choice)).not.toContain("folder");
  });
});

describe("DialogKeys", () => {
  const answers = 4;
  const clock = () => {
    let now = 1000;
    return { now: () => now, pass: (ms: number) => (now += ms) };
  };

  test("keys within the grace after the dialog appears go to the prompt, Esc and arrows do nothing", () => {
    const t = clock();
    const keys = new DialogKeys(t.now);
    expect(keys.view("ask-1")).toEqual({ selected: 0, armed: false });
    for (const k of [key("a"), key("u"), key("1"), { name: "enter" } as Key, { name: "backspace" } as Key]) expect(keys.key("ask-1", k, answers)).toEqual({ prompt: true });
    expect(keys.key("ask-1", { name: "escape" }, answers)).toEqual({ ignored: true });
    expect(keys.key("ask-1", { name: "down" }, answers)).toEqual({ ignored: true });
    // Each key typed pushes the answers back: typing on is not answering.
    t.pass(ANSWER_GRACE_MS - 1);
    expect(keys.key("ask-1", key("n"), answers)).toEqual({ prompt: true });
    t.pass(ANSWER_GRACE_MS - 1);
    expect(keys.view("ask-1").armed).toBe(false);
    t.pass(1);
    expect(keys.view("ask-1").armed).toBe(true);
  });

  test("armed: arrows and numbers move the mark, Enter confirms it, Esc says no; a letter goes to the prompt and disarms", () => {
    const t = clock();
    const keys = new DialogKeys(t.now);
    keys.view("ask-1");
    t.pass(ANSWER_GRACE_MS);
    expect(keys.key("ask-1", { name: "down" }, answers)).toEqual({ moved: true });
    expect(keys.key("ask-1", { name: "down" }, answers)).toEqual({ moved: true });
    expect(keys.view("ask-1").selected).toBe(2);
    expect(keys.key("ask-1", { name: "up" }, answers)).toEqual({ moved: true });
    expect(keys.key("ask-1", { name: "enter" }, answers)).toEqual({ confirm: 1 });
    expect(keys.key("ask-1", key("4"), answers)).toEqual({ moved: true });
    expect(keys.key("ask-1", key("9"), answers)).toEqual({ prompt: true }); // no such answer: typed text
    t.pass(ANSWER_GRACE_MS);
    expect(keys.key("ask-1", { name: "enter" }, answers)).toEqual({ confirm: 3 });
    expect(keys.key("ask-1", { name: "escape" }, answers)).toEqual({ reject: true });
    expect(keys.key("ask-1", key("y"), answers)).toEqual({ prompt: true });
    expect(keys.key("ask-1", { name: "enter" }, answers)).toEqual({ prompt: true });
    // A new ask starts over: unarmed, the first answer marked.
    t.pass(ANSWER_GRACE_MS);
    expect(keys.view("ask-2")).toEqual({ selected: 0, armed: false });
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
    expect(written.join("\n")).toContain("1. Yes");
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

  test("the numbered answers, the project one only when trusted, the first marked; the hint says when keys answer", () => {
    const trusted = dialogRows(withAlways, { command: "x" }, true, 80, 12, undefined, undefined, { selected: 0, armed: true });
    for (const shown of ["❯ 1. Yes", "  2. Yes, always (this session)", "  3. Yes, always (this project)", "  4. Yes, always (for me)", "  5. No (esc)", "  6. No, and tell it what to do instead"]) {
      expect(trusted).toContain(shown);
    }
    expect(trusted.at(-1)).toBe("↑↓ choose · Enter confirms · Esc: no");
    const untrusted = joined(dialogRows(withAlways, { command: "x" }, false, 80, 12, undefined, undefined, { selected: 2, armed: false }));
    expect(untrusted).not.toContain("(this project)");
    expect(untrusted).toContain("❯ 3. Yes, always (for me)");
    expect(untrusted).toContain("(what you type goes to your prompt; the answer keys work in a moment)");
    const nothingToSave = joined(dialogRows(withoutAlways, { command: "x" }, true, 80));
    expect(nothingToSave).not.toContain("always (");
    expect(nothingToSave).toContain("2. No (esc)");
  });
});
