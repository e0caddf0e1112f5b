// What a strict Chat Completions server rejects, checked on every request the fake receives.
type Json = Record<string, any>;

export function chatRequestProblems(body: unknown): string[] {
  const problems: string[] = [];
  if (!body || typeof body !== "object") return ["the body is not a JSON object"];
  const b = body as Json;
  if (typeof b.model !== "string" || !b.model) problems.push("model: missing");
  if (!Array.isArray(b.messages) || b.messages.length === 0) return [...problems, "messages: missing or empty"];
  if (b.tools !== undefined && (!Array.isArray(b.tools) || b.tools.length === 0)) problems.push("tools: must be a non-empty array when present");
  for (const [i, tool] of (b.tools ?? []).entries()) {
    if (tool?.type !== "function" || typeof tool.function?.name !== "string") problems.push(`tools[${i}]: expected {type: "function", function: {name, parameters}}`);
  }
  const open = new Set<string>();
  for (const [i, m] of (b.messages as Json[]).entries()) {
    const where = `messages[${i}]`;
    if (!["system", "user", "assistant", "tool"].includes(m.role)) problems.push(`${where}.role: invalid ${JSON.stringify(m.role)}`);
    if (m.role !== "tool" && open.size > 0) problems.push(`${where}: tool_calls ${[...open].join(", ")} have no tool message before this one`);
    if (m.role !== "tool") open.clear();
    if (m.role === "assistant") {
      for (const call of m.tool_calls ?? []) {
        if (typeof call.id !== "string" || call.id.length === 0) problems.push(`${where}.tool_calls: a call without id`);
        else if (call.id.length > 40) problems.push(`${where}.tool_calls: id ${JSON.stringify(call.id)} is longer than 40 characters`);
        if (typeof call.function?.arguments !== "string") problems.push(`${where}.tool_calls: arguments must be a string`);
        else {
          try {
            JSON.parse(call.function.arguments);
          } catch {
            problems.push(`${where}.tool_calls: arguments are not JSON`);
          }
        }
        open.add(call.id);
      }
      if ((m.content === null || m.content === "") && !(m.tool_calls?.length)) problems.push(`${where}: an assistant message with neither content nor tool_calls`);
    } else if (m.role === "tool") {
      if (!open.has(m.tool_call_id)) problems.push(`${where}: tool_call_id ${JSON.stringify(m.tool_call_id)} answers no open tool call`);
      open.delete(m.tool_call_id);
      if (typeof m.content !== "string") problems.push(`${where}.content: a tool message's content must be a string here`);
    } else if (m.role === "user") {
      const parts = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
      if (!Array.isArray(parts) || parts.length === 0) problems.push(`${where}.content: empty`);
      for (const p of parts ?? []) {
        if (p.type === "image_url" && !/^data:image\/[a-z]+;base64,/.test(p.image_url?.url ?? "")) problems.push(`${where}: image_url is not a data URL`);
        if (p.type !== "text" && p.type !== "image_url") problems.push(`${where}: unknown content part ${JSON.stringify(p.type)}`);
      }
    } else if (m.role === "system" && i !== 0) {
      problems.push(`${where}: a system message after the first`);
    }
    if (Array.isArray(m.content)) for (const p of m.content) if (p.cache_control) problems.push(`${where}: cache_control is Anthropic's`);
  }
  if (open.size > 0) problems.push(`the last tool_calls (${[...open].join(", ")}) have no tool messages`);
  return problems;
}
