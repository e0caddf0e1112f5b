// `--input-format stream-json`: user turns as Claude Code's SDK writes them, one JSON object a line
// on stdin (`{"type":"user","message":{"role":"user","content":"..." | [{"type":"text","text":"..."}]}}`),
// each run as a prompt of the same session, in order. A line that is not such a message is
// reported on stderr, with its number, and skipped.
import * as v from "valibot";
import type { ResultEvent, Session } from "../session/session.ts";
import { UsageError } from "../app/args.ts";

const Block = v.looseObject({ type: v.string(), text: v.optional(v.string()) });
const UserLine = v.looseObject({
  type: v.literal("user"),
  message: v.looseObject({ role: v.optional(v.literal("user")), content: v.union([v.string(), v.array(Block)]) }),
});

/** The text of one stdin line, or why it is not a user turn. */
export function turnText(line: string): { text: string } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { problem: "not JSON" };
  }
  const parsed = v.safeParse(UserLine, json);
  if (!parsed.success) return { problem: `not a user message (expected {"type":"user","message":{"role":"user","content":...}}): ${v.getDotPath(parsed.issues[0]) ?? "the line"}: ${parsed.issues[0].message}` };
  const { content } = parsed.output.message;
  const text = typeof content === "string" ? content : content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n\n");
  return text.trim() ? { text } : { problem: "the message has no text" };
}

/** Runs every user turn on stdin in order; the last run's result. */
export async function runTurns(session: Session, warn: (message: string) => void): Promise<ResultEvent> {
  let last: ResultEvent | undefined;
  let number = 0;
  let rest = "";
  const decoder = new TextDecoder();
  const take = async (line: string) => {
    number++;
    if (!line.trim()) return;
    const turn = turnText(line);
    if ("problem" in turn) return warn(`stdin line ${number}: ${turn.problem}; skipped`);
    last = await session.prompt(turn.text);
  };
  for await (const chunk of Bun.stdin.stream()) {
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      await take(line);
      if (last && last.status !== "success") return last;
    }
  }
  await take(rest);
  if (!last) throw new UsageError('--input-format stream-json read no user message on stdin (one JSON line each: {"type":"user","message":{"role":"user","content":"..."}})');
  return last;
}
