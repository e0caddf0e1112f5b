// Recall: the session's whole stored conversation, searchable by text and readable by position,
// including what compaction took out of the model's view.
import * as v from "valibot";
import { defineTool } from "rein/tool";
import description from "../prompts/tools/history.txt" with { type: "text" };

const MAX_ENTRY = 4_000;
const MAX_RESULTS = 20;

export default defineTool({
  name: "history",
  description,
  input: v.object({
    query: v.optional(v.pipe(v.string(), v.minLength(1))),
    from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    to: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
  readOnly: true,
  permissions: () => [],
  run({ query, from, to }, ctx) {
    const history = ctx.history;
    if (!history) return { output: "This session has no stored history to read.", isError: true };
    const count = history.count();
    if (query === undefined && from === undefined) {
      return `The session has ${count} messages (positions 0-${count - 1}). Give a query to search them, or from/to to read some.`;
    }
    const entries = query !== undefined ? history.search(query, MAX_RESULTS) : history.read(from!, Math.min(to ?? from! + 9, from! + MAX_RESULTS - 1));
    if (entries.length === 0) return query !== undefined ? `No message contains "${query}".` : `No messages at those positions (the session has ${count}).`;
    return entries
      .map((e) => `#${e.index} ${e.role}:\n${e.text.length > MAX_ENTRY ? `${e.text.slice(0, MAX_ENTRY)}\n[... ${e.text.length - MAX_ENTRY} more characters]` : e.text}`)
      .join("\n\n");
  },
});
