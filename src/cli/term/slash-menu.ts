// The `/` menu under the prompt, as both peers have: typing `/` lists every command (built-in, the
// user's and plugins' commands and skills, MCP prompts) with what it does, and each key typed
// narrows it (commands that start with the word first, then those that contain it). ↑/↓ choose,
// Tab fills the chosen command in, Enter runs it (or fills in one that needs an argument), Esc
// closes the menu for what is typed. A line brought back from the history opens no menu.
import chalk from "chalk";
import { BUILTINS, type SlashHost } from "./slash.ts";
import { editKey, visible, type LineEditor } from "./editor.ts";
import type { Key } from "./keys.ts";

export type MenuItem = { name: string; args?: string; about: string };

type Host = Pick<SlashHost, "custom" | "prompts"> | undefined;

export class SlashMenu {
  private selected = 0;
  /** the text the menu's choice was made for: another text starts again at the top */
  private chosenFor = "";
  /** a text the menu stays closed for (Esc, a line from the history) */
  private closedFor: string | undefined;

  /** The commands the typed text selects, or undefined when the menu is closed. */
  matches(text: string, host: Host): MenuItem[] | undefined {
    if (!/^\/\S*$/.test(text) || text === this.closedFor) return undefined;
    if (text !== this.chosenFor) {
      this.chosenFor = text;
      this.selected = 0;
    }
    const word = text.slice(1).toLowerCase();
    const items = menuItems(host);
    const starts = items.filter((i) => i.name.toLowerCase().startsWith(word));
    const contains = items.filter((i) => !i.name.toLowerCase().startsWith(word) && i.name.toLowerCase().includes(word));
    const found = [...starts, ...contains];
    return found.length ? found : undefined;
  }

  /** The menu's rows for `text`: at most `height`, a window that keeps the chosen one in sight, and how many more there are. */
  rows(text: string, host: Host, width: number, height: number): string[] {
    const items = this.matches(text, host);
    if (!items) return [];
    const shown = Math.max(1, Math.min(items.length, height));
    const first = Math.min(Math.max(0, this.selected - shown + 1), items.length - shown);
    const left = Math.max(...items.map((i) => label(i).length)) + 2;
    const rows = items.slice(first, first + shown).map((item, i) => {
      const chosen = first + i === this.selected;
      const name = label(item).padEnd(Math.min(left, Math.max(12, Math.floor(width / 2))));
      const row = `${chosen ? "› " : "  "}${name}${visible(item.about.split("\n")[0] ?? "")}`;
      return chosen ? chalk.cyan(row) : chalk.dim(row);
    });
    const above = first;
    const below = items.length - first - shown;
    if (above || below) rows.push(chalk.dim(`  ${items.length} commands${above ? ` · ${above} above` : ""}${below ? ` · ${below} below` : ""} (↑/↓, or type to narrow)`));
    return rows;
  }

  /** ↑ or ↓ while the menu is open: the choice moves (round the ends); false when it is closed. */
  move(text: string, host: Host, step: 1 | -1): boolean {
    const items = this.matches(text, host);
    if (!items) return false;
    this.selected = (this.selected + step + items.length) % items.length;
    return true;
  }

  /** The chosen command, while the menu is open. */
  chosen(text: string, host: Host): MenuItem | undefined {
    const items = this.matches(text, host);
    return items?.[Math.min(this.selected, items.length - 1)];
  }

  /** Keeps the menu closed until the text changes. */
  close(text: string): void {
    this.closedFor = text;
  }
}

/**
 * A key at the prompt, for the menu: ↑/↓ choose while it is open (else they walk the history, and
 * the line they bring back opens no menu), Tab fills the chosen command in, Enter runs it ("send",
 * with the command in the editor) or fills in one that needs an argument, Esc closes the menu.
 * False: the key is not the menu's.
 */
export function menuKey(menu: SlashMenu, editor: LineEditor, key: Key, host: Host): "send" | boolean {
  const text = editor.text;
  const open = editor.cursor === text.length && menu.matches(text, host) !== undefined;
  if (key.name === "up" || key.name === "down") {
    if (open) return menu.move(text, host, key.name === "up" ? -1 : 1);
    editKey(editor, key);
    menu.close(editor.text);
    return true;
  }
  if (!open || (key.name !== "tab" && key.name !== "enter" && key.name !== "escape")) return false;
  if (key.name === "escape") return (menu.close(text), true);
  const item = menu.chosen(text, host)!;
  if (key.name === "tab" || needsArgument(item)) return (editor.set(`/${item.name} `), true);
  editor.set(`/${item.name}`);
  return "send";
}

/** Every command the terminal knows, in /help's order: built-ins, then custom commands and skills, then MCP prompts. */
export function menuItems(host: Host): MenuItem[] {
  const items: MenuItem[] = BUILTINS.map((b) => ({ name: b.name, ...(b.args ? { args: b.args } : {}), about: b.about }));
  for (const c of host?.custom() ?? []) items.push({ name: c.name, ...(c.argumentHint ? { args: c.argumentHint } : {}), about: `${c.description} (${c.plugin ? `plugin ${c.plugin}` : c.source} ${c.kind})` });
  for (const p of host?.prompts?.() ?? []) items.push({ name: p.name, ...(p.argumentHint ? { args: p.argumentHint } : {}), about: `${p.description} (MCP prompt)` });
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.name) && seen.add(i.name));
}

/** Whether the command needs an argument before it can run (its hint is not all optional). */
export function needsArgument(item: MenuItem): boolean {
  return item.args !== undefined && !item.args.trim().startsWith("[");
}

const label = (item: MenuItem) => `/${item.name}${item.args ? ` ${item.args}` : ""}`;
