// Session events as the terminal shows them: the answer rendered as Markdown line by line (the
// unfinished line stays live), one line per tool call with a coloured diff for edits, and a spinner
// while the model thinks or a tool runs. The spinner's timer only runs while something is running.
import { checkpointLine } from "../checkpoint-line.ts";
import chalk from "chalk";
import type { StampedEvent } from "../../app/events.ts";
import { diffRows } from "../diff-view.ts";
import { hookLine } from "../hook-line.ts";
import { markdownRenderer, type MarkdownRenderer } from "../markdown.ts";
import { printable } from "../printable.ts";
import { todoRows, todosOf } from "../todo-view.ts";
import { finishedLine, isPlumbing, runningLine } from "../tool-line.ts";
import { visible, wrapByWidth } from "./editor.ts";
import type { Screen } from "./screen.ts";
import { indentOf, taskLabel, treeOrder } from "./subagent-rows.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SHOWN_PROMPT_LINES = 6;
const DIFF_ROWS = 12;

/**
 * `waited`: the milliseconds a permission dialog kept the call waiting, left out of its duration;
 * `parent`: the task call whose subagent made this call (`depth` 1 for its child, 2 for a grandchild)
 */
export type Running = { name: string; input: unknown; started: number; last: string; waited: number; askedAt?: number; parent?: string; depth: number };

/** What of a subagent's events (forwarded with parent_tool_use_id) shows: its calls, its asks, its errors. */
const CHILD_SHOWN = new Set<StampedEvent["type"]>(["tool_start", "tool_output", "tool_end", "permission_ask", "permission_reply", "error"]);

export class Transcript {
  private md: MarkdownRenderer | undefined;
  private readonly running = new Map<string, Running>();
  /** open permission asks: ask id -> the tool call it is for */
  private readonly asked = new Map<string, string>();
  private waitingSince: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  /** the message of the run's last error event */
  private shownError: string | undefined;
  /** the task list shown last (JSON) */
  private shownTodos: string | undefined;
  /** a person is being asked something: nothing moves until they answer */
  private held = false;
  /** the task call whose subagent's lines were printed last (its header is not repeated) */
  private group: string | undefined;

  constructor(
    private readonly screen: Screen,
    private readonly options: { cwd: string; color: boolean; changed: () => void; now?: () => number },
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The input of a tool call by its id, for the permission dialog. */
  inputOf(toolUseId: string): unknown {
    return this.running.get(toolUseId)?.input;
  }

  /** Which subagent asks, for the permission dialog: "explore · find the handler" (undefined for the session's own asks). */
  askerOf(ask: { parent_tool_use_id?: string }): string | undefined {
    return ask.parent_tool_use_id ? taskLabel(this.running.get(ask.parent_tool_use_id)) : undefined;
  }

  handle(event: StampedEvent): void {
    const parent = event.parent_tool_use_id;
    // A subagent's prompt, text and result stay in its own session; its task call's line sums it up.
    if (parent && !CHILD_SHOWN.has(event.type)) return;
    switch (event.type) {
      case "user":
        this.print(userLines(event.typed ?? event.text, this.screen.width));
        this.wait(true);
        break;
      case "text_delta":
        this.wait(false);
        this.md ??= markdownRenderer({ width: this.screen.width - 1, color: this.options.color });
        this.print(this.md.push(event.text));
        break;
      case "assistant":
        this.endText();
        break;
      case "tool_start": {
        if (isPlumbing(event.name)) break;
        const depth = parent ? (this.running.get(parent)?.depth ?? 0) + 1 : 0;
        this.running.set(event.id, { name: event.name, input: event.input, started: this.now(), last: "", waited: 0, depth, ...(parent ? { parent } : {}) });
        this.wait(false);
        break;
      }
      case "permission_ask": {
        const call = this.running.get(event.tool_use_id);
        if (call) call.askedAt = this.now();
        this.asked.set(event.id, event.tool_use_id);
        break;
      }
      case "permission_reply": {
        const call = this.running.get(this.asked.get(event.id) ?? "");
        this.asked.delete(event.id);
        if (call?.askedAt !== undefined) call.waited += this.now() - call.askedAt;
        if (call) call.askedAt = undefined;
        break;
      }
      case "tool_output": {
        const call = this.running.get(event.id);
        const last = event.chunk.trimEnd().split("\n").at(-1);
        if (call && last) call.last = last;
        break;
      }
      case "tool_end": {
        if (isPlumbing(event.name) && !event.is_error) break;
        const call = this.running.get(event.id) ?? { name: event.name, input: undefined, started: this.now(), last: "", waited: 0, depth: 0 };
        this.running.delete(event.id);
        const styles = { color: this.options.color };
        const width = this.screen.width - 1 - indentOf(call.depth).length;
        const line = finishedLine(call, event, elapsed(call, this.now()), this.options.cwd, width, styles);
        const diff = diffRows(event.name, call.input, event.metadata, width, call.parent ? DIFF_ROWS / 2 : DIFF_ROWS, styles);
        if (call.parent) this.printChild(call.parent, call.depth, [line, ...diff]);
        else this.print([line, ...diff, ...this.todoChange(event, width)]);
        if (this.running.size === 0) this.wait(true);
        break;
      }
      case "retry":
        this.print([chalk.yellow(`retrying in ${(event.delay_ms / 1000).toFixed(1)}s (attempt ${event.attempt}: ${visible(event.reason)})`)]);
        break;
      case "compaction":
        this.print([chalk.dim(compactionLine(event))]);
        break;
      case "checkpoint":
        if (event.changed.length || event.incomplete) this.print([chalk.dim(visible(checkpointLine(event)))]);
        break;
      case "hook_end": {
        const line = hookLine(event);
        if (line) this.print([(line.tone === "warn" ? chalk.yellow : chalk.dim)(visible(line.text))]);
        break;
      }
      case "error":
        if (parent) {
          this.printChild(parent, (this.running.get(parent)?.depth ?? 0) + 1, [chalk.red(visible(event.message))]);
          break;
        }
        this.print([chalk.red(visible(event.message))]);
        this.shownError = event.message;
        break;
      case "result":
        this.endText();
        // A failed run's reason, unless its error event already said it (a 401 is printed once).
        if (event.status !== "success" && event.status !== "interrupted" && event.error && event.error !== this.shownError) {
          this.print([chalk.red(visible(event.error))]);
        }
        this.shownError = undefined;
        this.running.clear();
        this.wait(false);
        break;
      default:
        return;
    }
    this.options.changed();
  }

  /** The live rows: the line being streamed, then one row per running tool, or "thinking". */
  liveRows(width: number): string[] {
    const rows: string[] = [];
    // The unfinished line is shown raw: without control characters a model could send to the terminal.
    const pending = printable(this.md?.pending() ?? "");
    if (pending) rows.push(...wrapByWidth(pending, width - 1));
    const spin = chalk.cyan(FRAMES[this.frame % FRAMES.length]);
    // A subagent's running calls sit under its task call, indented.
    for (const call of treeOrder(this.running)) {
      const seconds = Math.floor(elapsed(call, this.now()) / 1000);
      const tail = call.last ? chalk.dim(`  ${visible(call.last.trim())}`) : "";
      const indent = indentOf(call.depth);
      rows.push(`${indent}${spin} ${runningLine(call.name, call.input, this.options.cwd, width - 8 - indent.length, { color: this.options.color })}${seconds > 0 ? chalk.dim(`  ${seconds}s`) : ""}${tail}`);
    }
    if (this.waitingSince !== undefined && this.running.size === 0 && !pending) {
      const seconds = Math.floor((this.now() - this.waitingSince) / 1000);
      rows.push(`${spin} ${chalk.dim(`thinking${seconds > 0 ? ` ${seconds}s` : "…"}`)}`);
    }
    return rows;
  }

  resize(width: number): void {
    this.md?.resize(width - 1);
  }

  /** Stops the spinner for good (exit). */
  stop(): void {
    this.wait(false);
    this.running.clear();
  }

  /** The task list under a todo call, when it differs from the one shown last. */
  private todoChange(event: Extract<StampedEvent, { type: "tool_end" }>, width: number): string[] {
    const todos = todosOf(event.name, event.metadata);
    const key = JSON.stringify(todos);
    if (!todos || key === this.shownTodos) return [];
    this.shownTodos = key;
    return todoRows(todos, width, { color: this.options.color });
  }

  private endText(): void {
    if (!this.md) return;
    this.print(this.md.flush());
    this.md = undefined;
  }

  private print(lines: string[]): void {
    if (lines.length === 0) return;
    this.group = undefined;
    this.screen.print(`${lines.join("\n")}\n`);
  }

  /** Something else was printed: a subagent's next line gets its task's header again. */
  separate(): void {
    this.group = undefined;
  }

  /** A subagent's lines, indented under a header naming its task (printed again when another task's lines came between). */
  private printChild(parent: string, depth: number, lines: string[]): void {
    const header = this.group === parent ? [] : [chalk.dim(`${indentOf(depth - 1)}  ↳ ${visible(taskLabel(this.running.get(parent)) ?? "subagent")}`)];
    this.screen.print(`${[...header, ...lines.map((line) => indentOf(depth) + line)].join("\n")}\n`);
    this.group = parent;
  }

  /** Stops the spinner while a dialog waits for the user (no timer runs while nobody types). */
  hold(on: boolean): void {
    if (this.held === on) return;
    this.held = on;
    this.wait(this.waitingSince !== undefined);
  }

  private wait(on: boolean): void {
    this.waitingSince = on ? (this.waitingSince ?? this.now()) : undefined;
    const busy = (on || this.running.size > 0) && !this.held;
    if (busy && !this.timer) {
      this.timer = setInterval(() => {
        this.frame++;
        this.options.changed();
      }, 100);
    } else if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** How long a call has run, without the time a permission dialog kept it waiting. */
function elapsed(call: Running, now: number): number {
  const asking = call.askedAt === undefined ? 0 : now - call.askedAt;
  return now - call.started - call.waited - asking;
}

/** The prompt as it goes into the scrollback: a blank line, then at most a few lines of it. */
function userLines(text: string, width: number): string[] {
  const lines = text.split("\n");
  const shown = lines.slice(0, SHOWN_PROMPT_LINES).flatMap((line) => wrapByWidth(visible(line), width - 3));
  const more = lines.length - SHOWN_PROMPT_LINES;
  const rows = shown.map((line, i) => chalk.bold(`${i === 0 ? "›" : " "} ${line}`));
  if (more > 0) rows.push(chalk.dim(`  … ${more} more lines`));
  return ["", ...rows];
}

function compactionLine(event: Extract<StampedEvent, { type: "compaction" }>): string {
  const how = { prune: "old tool outputs removed", summary: "earlier conversation summarised", cut: "earlier conversation cut (the summary failed)" }[event.method];
  return `(context compacted: ${how}, ~${event.tokens_before} -> ~${event.tokens_after} tokens)`;
}
