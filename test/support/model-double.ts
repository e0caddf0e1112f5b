// A model for loop tests that needs no HTTP: each call to `stream` replays the next scripted turn
// (the provider events a real provider would yield) and records the request it was given.
import type { ContentBlock, LoopConfig, Message, ModelRequest, ProviderEvent, StreamFn } from "../../src/agent/types.ts";
import type { LoopRun } from "../../src/agent/loop.ts";
import { diskFiles, type Tool } from "../../src/sdk.ts";

export type ScriptedTurn = ProviderEvent[];

export type ModelDouble = { stream: StreamFn; requests: ModelRequest[]; left: () => number };

export function modelDouble(...turns: ScriptedTurn[]): ModelDouble {
  const queue = [...turns];
  const requests: ModelRequest[] = [];
  const stream: StreamFn = async function* (request) {
    // A copy: the loop goes on appending to the array it sent.
    requests.push({ ...request, messages: structuredClone(request.messages) });
    const turn = queue.shift();
    if (!turn) return yield { type: "error", code: "unknown", message: "model double: no scripted turn left" };
    yield* turn;
  };
  return { stream, requests, left: () => queue.length };
}

const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

/** A finished reply of these blocks, streaming its text first. */
export function replies(content: ContentBlock[], extra: Partial<Extract<ProviderEvent, { type: "done" }>> = {}): ScriptedTurn {
  const texts = content.filter((b): b is { type: "text"; text: string } => b.type === "text").map((b) => ({ type: "text_delta" as const, text: b.text }));
  const hasCalls = content.some((b) => b.type === "tool_use");
  return [...texts, { type: "done", content, stop_reason: hasCalls ? "tool_use" : "end_turn", usage, incomplete_tool_ids: [], ...extra }];
}

export const says = (text: string): ScriptedTurn => replies([{ type: "text", text }]);
export const call = (id: string, name: string, input: unknown): ContentBlock => ({ type: "tool_use", id, name, input });

/** The loop's I/O with everything allowed and every event collected; `events` is what it emitted. */
export function loopRun(double: ModelDouble, tools: Tool[]): LoopRun & { events: Parameters<LoopRun["emit"]>[0][]; committed: Message[] } {
  const events: Parameters<LoopRun["emit"]>[0][] = [];
  const committed: Message[] = [];
  return {
    events,
    committed,
    stream: double.stream,
    authorize: async () => ({ allow: true }),
    emit: (event) => void events.push(event),
    bound: (output) => ({ output, truncated: false }),
    tools: () => tools,
    files: { recordRead: () => {}, lastRead: () => undefined },
    fileAccess: diskFiles,
    outputDir: "/nonexistent/rein-test-output",
    toolEnv: {},
    sandbox: (readOnly) => ({ mode: "off", network: false, readOnly, masked: [] }),
    costOf: () => null,
    commit: (message) => (committed.push(message), message),
  };
}

export const loopConfig = (overrides: Partial<LoopConfig> = {}): LoopConfig => ({
  model: "double-model",
  system: "You are under test.",
  maxTokens: 1024,
  maxTurns: 10,
  cwd: "/",
  sessionId: "s_double",
  ...overrides,
});
