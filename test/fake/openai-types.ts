import type { FakeBlock, FakeUsage, RecordedRequest } from "./types.ts";

/** What one server family does differently; a dialect is a set of these, and a step may add its own. */
export type ChatQuirks = {
  /** tool-call fragments carry no `index` (Gemini proxies, old Ollama) */
  noIndex?: boolean;
  /** every tool-call fragment has `index: 0` (Ollama: parallel calls share it) */
  indexAlwaysZero?: boolean;
  /** tool calls come without ids */
  noIds?: boolean;
  /** every tool call gets the same id */
  repeatedIds?: boolean;
  /** a whole call (name and all its arguments) in one fragment */
  wholeCalls?: boolean;
  /** finish_reason "stop" even when the reply calls tools */
  stopWithToolCalls?: boolean;
  /** the usage chunk has `choices: null` instead of [] (vLLM) */
  usageChoicesNull?: boolean;
  /** usage rides on the chunk with finish_reason instead of a chunk of its own */
  usageOnLastChunk?: boolean;
  /** `: keep-alive` comment lines between chunks (OpenRouter) */
  comments?: boolean;
  /** the field reasoning streams under, when a step has reasoning */
  reasoningField?: "reasoning_content" | "reasoning";
  /** no `data: [DONE]` at the end */
  noDone?: boolean;
};

export type ChatDialect = "openai" | "ollama" | "vllm";

export const DIALECTS: Record<ChatDialect, ChatQuirks> = {
  openai: {},
  ollama: { indexAlwaysZero: true, wholeCalls: true, stopWithToolCalls: true, usageOnLastChunk: true, reasoningField: "reasoning" },
  vllm: { usageChoicesNull: true, reasoningField: "reasoning_content", comments: true },
};

export type ChatReplyStep = {
  reply: FakeBlock[];
  /** streamed before the answer under the dialect's reasoning field */
  reasoning?: string;
  /** defaults to "tool_calls" with tool calls, else "stop" */
  finishReason?: string;
  usage?: FakeUsage & { cached_tokens?: number };
  chunkSize?: number;
  delayMs?: number;
  quirks?: ChatQuirks;
  /** a tool call's arguments sent as this text instead of its input's JSON (the last call) */
  rawArguments?: string;
};

export type ChatStep =
  | ChatReplyStep
  | { error: number; body?: unknown; retryAfter?: number; headers?: Record<string, string> }
  /** streams the reply, then drops the connection after `afterChunks` chunks (default 2) */
  | { cut: FakeBlock[]; afterChunks?: number }
  /** a tool call cut by the output limit: half its arguments, finish_reason "length" */
  | { lengthCut: FakeBlock[] }
  /** a 200 stream that sends an error object after `afterChunks` chunks (default 1) */
  | { midStreamError: { message: string; code?: number | string; type?: string }; afterChunks?: number; partial?: FakeBlock[] }
  /** 200 and a role chunk (or nothing), then silence */
  | { hang: true; afterRole?: boolean }
  | { malformed: true }
  | { raw: (req: Request) => Response | Promise<Response> }
  | { respond: (body: any) => ChatStep };

export type FakeChatServer = {
  /** e.g. "http://127.0.0.1:40123/v1": use as the provider's baseURL */
  url: string;
  dialect: ChatDialect;
  script(...steps: ChatStep[]): void;
  requests: RecordedRequest[];
  /** the hidden calls naming a session after its first turn, answered on their own (see FakeServer) */
  titleRequests: RecordedRequest[];
  /** what the strict check found wrong with each request (empty when it was valid) */
  problems: string[][];
  pending(): number;
  reset(): void;
  close(): Promise<void>;
};
