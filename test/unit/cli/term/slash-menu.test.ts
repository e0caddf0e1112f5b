// The / menu's model: what it lists for what is typed (commands starting with the word, then those
// containing it; the user's commands and MCP prompts after the built-ins), its window and count
// row, ↑/↓ round the ends, and the keys: Tab fills in, Enter runs or fills in, Esc closes, the history's lines open none.
import { expect, test } from "bun:test";
import { LineEditor } from "../../../../src/cli/term/editor.ts";
import { menuItems, menuKey, SlashMenu } from "../../../../src/cli/term/slash-menu.ts";
import type { SlashCommand } from "../../../../src/session/skills.ts";

const host = {
  custom: () => [{ name: "greet", description: "Says hello", source: "user", kind: "command" } as unknown as SlashCommand],
  prompts: () => [{ name: "mcp__docs__search", description: "Searches the docs\nsecond line", argumentHint: "QUERY" }],
};
const names = (menu: SlashMenu, text: string) => menu.matches(text, host)?.map((i) => i.name);

test("every command is listed for /, the user's and MCP prompts after the built-ins; each key narrows it", () => {
  const menu = new SlashMenu();
  const all = names(menu, "/")!;
  expect(all[0]).toBe("help");
  expect(all.slice(-2)).toEqual(["greet", "mcp__docs__search"]);
  expect(all).toEqual(expect.arrayContaining(["tasks", "tools", "undo"]));
  expect(names(menu, "/t")!.slice(0, 2)).toEqual(["tools", "tasks"]);
  expect(names(menu, "/t")).toContain("greet");
  expect(names(menu, "/zzz")).toBeUndefined();
  expect(names(menu, "/help me")).toBeUndefined();
  expect(menuItems(host).filter((i) => i.name === "greet")).toHaveLength(1);
});

test("the rows: a window of the height keeping the chosen one in sight, the count of the rest, the first line of a description", () => {
  const menu = new SlashMenu();
  const rows = menu.rows("/", host, 80, 5).map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""));
  expect(rows).toHaveLength(6);
  expect(rows[0]).toStartWith("› /help");
  expect(rows[5]).toMatch(/^ {2}\d+ commands · \d+ below/);
  for (let i = 0; i < 6; i++) menu.move("/", host, 1);
  const moved = menu.rows("/", host, 80, 5).map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""));
  expect(moved.find((r) => r.startsWith("›"))).toBeDefined();
  expect(moved.at(-1)).toMatch(/\d+ above · \d+ below/);
  expect(menu.chosen("/", host)?.name).toBe(names(menu, "/")![6]);
  // Another text starts at the top again; ↑ from the top goes round to the last.
  expect(menu.rows("/mcp__", host, 80, 5).join("\n")).not.toContain("second line");
  menu.move("/", host, -1);
  expect(menu.chosen("/", host)?.name).toBe("mcp__docs__search");
});

test("keys: Tab fills in, Enter runs one without a needed argument and fills in one with, Esc closes, ↑ from the history opens none", () => {
  const menu = new SlashMenu();
  const editor = new LineEditor(["/cost"]);
  editor.set("/gr");
  expect(menuKey(menu, editor, { name: "tab" }, host)).toBe(true);
  expect(editor.text).toBe("/greet ");
  editor.set("/co");
  expect(menuKey(menu, editor, { name: "down" }, host)).toBe(true);
  expect(menuKey(menu, editor, { name: "enter" }, host)).toBe("send");
  expect(editor.text).toBe("/cost");
  editor.set("/resu");
  expect(menuKey(menu, editor, { name: "enter" }, host)).toBe(true);
  expect(editor.text).toBe("/resume ");
  editor.set("/un");
  expect(menuKey(menu, editor, { name: "escape" }, host)).toBe(true);
  expect(menu.matches("/un", host)).toBeUndefined();
  expect(menuKey(menu, editor, { name: "enter" }, host)).toBe(false);
  editor.set("");
  expect(menuKey(menu, editor, { name: "up" }, host)).toBe(true);
  expect(editor.text).toBe("/cost");
  expect(menu.matches("/cost", host)).toBeUndefined();
});
