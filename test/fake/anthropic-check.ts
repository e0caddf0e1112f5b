// What the Messages API rejects by its own rules, checked on a recorded request body.
type Block = { type: string; [key: string]: any };
type Msg = { role: string; content: string | Block[] };

const ID = /^[a-zA-Z0-9_-]+$/;
const KNOWN = new Set(["text", "image", "tool_use", "tool_result", "thinking", "redacted_thinking", "document"]);

export function anthropicRequestProblems(body: any): string[] {
  const problems: string[] = [];
  const messages = (body?.messages ?? []) as Msg[];
  if (messages.length === 0) return ["messages: empty"];
  let previousUses = new Set<string>();
  messages.forEach((m, i) => {
    const where = `messages[${i}]`;
    if (m.role !== (i % 2 === 0 ? "user" : "assistant")) problems.push(`${where}: roles must alternate, starting with user`);
    const blocks: Block[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    if (blocks.length === 0) problems.push(`${where}: empty content`);
    const uses = new Set<string>();
    for (const b of blocks) {
      if (!KNOWN.has(b.type)) problems.push(`${where}: unknown block type ${JSON.stringify(b.type)}`);
      if (b.type === "text" && !String(b.text ?? "").trim()) problems.push(`${where}: text content blocks must be non-empty`);
      if (b.type === "tool_use") {
        if (!ID.test(b.id)) problems.push(`${where}: tool_use id ${JSON.stringify(b.id)} does not match ${ID}`);
        uses.add(b.id);
      }
      if (b.type === "tool_result" && !previousUses.has(b.tool_use_id)) problems.push(`${where}: tool_result ${JSON.stringify(b.tool_use_id)} answers no tool_use of the message before`);
    }
    if (m.role === "user") {
      const answered = new Set(blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
      for (const id of previousUses) if (!answered.has(id)) problems.push(`${where}: tool_use ids were found without tool_result blocks: ${id}`);
    }
    previousUses = m.role === "assistant" ? uses : new Set();
  });
  if (previousUses.size) problems.push("the last assistant message's tool_use blocks have no results");
  return problems;
}
