// The model's task list. Each call sends the whole list, which replaces the last one; the list
// lives in the conversation, and front ends draw it from the tool_end event's metadata.
import * as v from "valibot";
import { defineTool } from "rein/tool";
import description from "../prompts/tools/todo.txt" with { type: "text" };

const STATUSES = ["pending", "in_progress", "done"] as const;
type Status = (typeof STATUSES)[number];

const MARKS: Record<Status, string> = { done: "[x]", in_progress: "[>]", pending: "[ ]" };

export default defineTool({
  name: "todo",
  description,
  input: v.object({
    todos: v.array(
      v.object({
        content: v.pipe(v.string(), v.trim(), v.minLength(1)),
        status: v.picklist(STATUSES),
      }),
    ),
  }),
  permissions: () => [],
  readOnly: true,
  run({ todos }) {
    const current = todos.filter((todo) => todo.status === "in_progress");
    if (current.length > 1) {
      const names = current.map((todo) => `"${todo.content}"`).join(", ");
      return {
        output: `${current.length} tasks are in_progress (${names}); at most one may be. Keep one in_progress, mark the others pending or done, and send the whole list again.`,
        isError: true,
      };
    }
    if (todos.length === 0) return { output: "The task list is now empty.", metadata: { todos } };
    const lines = todos.map((todo) => `${MARKS[todo.status]} ${todo.content}`);
    return { output: [...lines, counts(todos)].join("\n"), metadata: { todos } };
  },
});

function counts(todos: ReadonlyArray<{ status: Status }>): string {
  const count = (status: Status) => todos.filter((todo) => todo.status === status).length;
  return `(${count("done")} done, ${count("in_progress")} in progress, ${count("pending")} pending)`;
}
