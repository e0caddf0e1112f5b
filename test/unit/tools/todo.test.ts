// The todo tool: the list rendered for the model, the list as metadata for front ends, the rules.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import todo from "../../../tools/todo.ts";
import { toolContext } from "../../support/tool-context.ts";

type Result = { output: string; isError: boolean; metadata?: Record<string, unknown> };

async function call(input: unknown): Promise<Result> {
  const parsed = v.parse(todo.input, input);
  const result = await todo.run(parsed, toolContext(import.meta.dir));
  if (typeof result === "string") return { output: result, isError: false };
  return { output: result.output, isError: result.isError === true, metadata: result.metadata };
}

describe("todo", () => {
  test("renders the list compactly with counts and hands the list to front ends as metadata", async () => {
    const todos = [
      { content: "Read the failing test", status: "done" },
      { content: "Fix the parser", status: "in_progress" },
      { content: "Run the suite", status: "pending" },
      { content: "Update the changelog", status: "pending" },
    ];
    const result = await call({ todos });
    expect(result).toEqual({
      output: [
        "[x] Read the failing test",
        "[>] Fix the parser",
        "[ ] Run the suite",
        "[ ] Update the changelog",
        "(1 done, 1 in progress, 2 pending)",
      ].join("\n"),
      isError: false,
      metadata: { todos },
    });
  });

  test("each call replaces the list: an empty list clears it", async () => {
    const result = await call({ todos: [] });
    expect(result).toEqual({ output: "The task list is now empty.", isError: false, metadata: { todos: [] } });
  });

  test("two tasks in progress is an error naming them", async () => {
    const result = await call({
      todos: [
        { content: "A", status: "in_progress" },
        { content: "B", status: "in_progress" },
        { content: "C", status: "pending" },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      '2 tasks are in_progress ("A", "B"); at most one may be. Keep one in_progress, mark the others pending or done, and send the whole list again.',
    );
    expect(result.metadata).toBeUndefined();
  });

  test("content is trimmed; a blank item or an unknown status fails validation", () => {
    expect(v.parse(todo.input, { todos: [{ content: "  spaced  ", status: "pending" }] })).toEqual({
      todos: [{ content: "spaced", status: "pending" }],
    });
    const badStatus = v.safeParse(todo.input, { todos: [{ content: "A", status: "completed" }] });
    expect(badStatus.success).toBe(false);
    expect(badStatus.issues?.map((issue) => v.getDotPath(issue))).toEqual(["todos.0.status"]);
    expect(v.safeParse(todo.input, { todos: [{ content: "   ", status: "done" }] }).success).toBe(false);
  });

  test("never asks and is read-only", () => {
    expect(todo.permissions?.({ todos: [] }, { cwd: "/" })).toEqual([]);
    expect(todo.readOnly).toBe(true);
  });
});
