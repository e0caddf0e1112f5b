// The checks the real Messages API makes of a conversation before it answers, for a fake started
// with `strict: true`: a request that breaks one is answered 400 with the API's kind of message, and
// consumes no scripted step. Written from the API's error messages, independently of rein's code.
type Block = { type?: string; text?: unknown; id?: unknown; tool_use_id?: unknown; content?: unknown; source?: { type?: string; media_type?: string; data?: string } };
type Sent = { role?: string; content?: unknown };

export function strictProblem(body: Record<string, unknown>): string | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  for (let i = 0; i < messages.length; i++) {
    const problem = messageProblem(messages as Sent[], i);
    if (problem) return `messages.${i}: ${problem}`;
  }
  return undefined;
}

function messageProblem(messages: Sent[], i: number): string | undefined {
  const message = messages[i]!;
  const blocks = blocksOf(message.content);
  const last = i === messages.length - 1;
  if (blocks.length === 0 && !(last && message.role === "assistant")) return "all messages must have non-empty content except for the optional final assistant message";
  for (const block of blocks) {
    const problem = blockProblem(block);
    if (problem) return problem;
  }
  const calls = message.role === "assistant" ? blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id)) : [];
  if (calls.length > 0 && !last) {
    const answered = new Set(message.role === "assistant" ? blocksOf(messages[i + 1]?.content).filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id)) : []);
    const missing = calls.filter((id) => !answered.has(id));
    if (missing.length > 0) return `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}`;
  }
  const results = blocks.filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id));
  if (results.length > 0) {
    const made = new Set(i > 0 && messages[i - 1]!.role === "assistant" ? blocksOf(messages[i - 1]!.content).filter((b) => b.type === "tool_use").map((b) => String(b.id)) : []);
    const unexpected = results.filter((id) => !made.has(id));
    if (unexpected.length > 0) return `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(", ")}`;
  }
  return undefined;
}

function blockProblem(block: Block): string | undefined {
  if (block.type === "text") {
    if (typeof block.text !== "string" || block.text === "") return "text content blocks must be non-empty";
    if (block.text.trim() === "") return "text content blocks must contain non-whitespace text";
  }
  if (block.type === "image" && !imageLooksWhole(block.source)) return "Could not process image";
  if (block.type === "tool_result" && Array.isArray(block.content)) {
    for (const inner of block.content as Block[]) {
      const problem = blockProblem(inner);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The signature of the media type and a proper end: PNG's IEND chunk, JPEG's EOI, GIF's trailer, WebP's RIFF size. */
function imageLooksWhole(source: Block["source"]): boolean {
  if (source?.type !== "base64" || typeof source.data !== "string") return false;
  const b = Buffer.from(source.data, "base64");
  const tail = (bytes: number[]) => b.length >= bytes.length && bytes.every((x, k) => b[b.length - bytes.length + k] === x);
  switch (source.media_type) {
    case "image/png":
      return b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && tail([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    case "image/jpeg":
      return b[0] === 0xff && b[1] === 0xd8 && b.includes(Buffer.from([0xff, 0xd9]));
    case "image/gif":
      return /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1")) && tail([0x3b]);
    case "image/webp":
      return b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" && b.readUInt32LE(4) + 8 <= b.length;
    default:
      return false;
  }
}

function blocksOf(content: unknown): Block[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}
