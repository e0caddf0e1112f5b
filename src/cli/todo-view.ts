// The model's task list as the terminal shows it under a todo call: one row per task, its state as
// a mark. The list comes from the todo tool's tool_end metadata.
import { fitColumns, oneLine, paint, type Styles } from "./tool-line.ts";

type Todo = { content: string; status: string };

const MARKS: Record<string, string> = { done: "✓", in_progress: "▸", pending: "○" };

/** The tasks in a todo call's metadata; undefined when it carries none (a failed call, another tool). */
export function todosOf(name: string, metadata: Record<string, unknown> | undefined): Todo[] | undefined {
  const todos = metadata?.todos;
  if (name !== "todo" || !Array.isArray(todos)) return undefined;
  return todos.filter((t): t is Todo => typeof t?.content === "string" && typeof t?.status === "string");
}

/** Rows for the list at `width` columns: done tasks dim, the one in progress bold. */
export function todoRows(todos: readonly Todo[], width: number, s: Styles): string[] {
  const c = paint(s);
  if (todos.length === 0) return [c.dim("  (the task list is empty)")];
  return todos.map(({ content, status }) => {
    const row = fitColumns(`  ${MARKS[status] ?? "?"} ${oneLine(content)}`, width);
    if (status === "done") return c.dim(row);
    if (status === "in_progress") return c.bold(row);
    return row;
  });
}
