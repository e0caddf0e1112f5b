import chalk from "chalk";
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
// Everything a Session test runs on, all real: the fake Anthropic server driven through the real SDK
// (anthropicStream), a SQLite store in a temp dir, the real output bounding. Retries do not wait.
import { join } from "node:path";
import type { Message, ToolResultBlock, ToolUseBlock } from "../../src/agent/types.ts";
import { anthropicStream } from "../../src/llm/anthropic.ts";
import type { Rule } from "../../src/permission/evaluate.ts";
import type { Tool } from "../../src/sdk.ts";
import type { AskPolicy } from "../../src/session/broker.ts";
import { boundOutput } from "../../src/session/bound-output.ts";
import { Session, type SessionOptions } from "../../src/session/session.ts";
import { Store } from "../../src/session/store.ts";
import { startFakeAnthropic, type FakeServer, type RecordedRequest } from "../fake/server.ts";
import { eventLog, type EventLog } from "./event-log.ts";
import { tempDir, type TempDir } from "./temp-dir.ts";

export const TEST_MODEL = "claude-test-1";
export const ALLOW_ALL: readonly Rule[] = [{ permission: "*", pattern: "*", action: "allow" }];

export type SessionSetup = {
  tools?: Tool[];
  rules?: readonly Rule[];
  askPolicy?: AskPolicy;
  maxTurns?: number;
  /** defaults to TEST_MODEL, whose prices are unknown */
  model?: string;
  maxCost?: number;
  /** the model's context window in tokens (small ones make compaction testable) */
  contextWindow?: number;
};

export type Kit = {
  fake: FakeServer;
  store: Store;
  dir: TempDir;
  /** Options for a session in this kit (the same ones `create` uses). */
  options(setup?: SessionSetup): SessionOptions;
  /** A new session in the temp dir, with its event log already listening. */
  create(setup?: SessionSetup): { session: Session; log: EventLog };
  close(): Promise<void>;
};

/** The fake is strict: it refuses what the Messages API refuses (empty text, a tool_use without its result, a broken image). */
export async function startKit(): Promise<Kit> {
  const fake = await startFakeAnthropic({ strict: true });
  const dir = tempDir("rein-session-");
  const { store } = Store.open(join(dir.path, "rein.db"));
  const options = (setup: SessionSetup = {}) => testSessionOptions({ store, baseURL: fake.url, dataDir: dir.path, ...setup });
  return {
    fake,
    store,
    dir,
    options,
    create(setup) {
      const session = Session.create(dir.path, options(setup));
      return { session, log: eventLog(session) };
    },
    async close() {
      await fake.close();
      store.close();
      dir.remove();
    },
  };
}

/** Session options for tests: the real provider against `baseURL`, retries without waiting. */
export function testSessionOptions(setup: SessionSetup & { store: Store; baseURL: string; dataDir: string }): SessionOptions {
  return {
    store: setup.store,
    stream: anthropicStream({
      apiKey: "sk-ant-test",
      baseURL: setup.baseURL,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      sleep: async () => {},
    }),
    model: setup.model ?? TEST_MODEL,
    system: "You are rein, under test.",
    tools: setup.tools ?? [],
    rules: setup.rules ?? ALLOW_ALL,
    maxTurns: setup.maxTurns ?? 20,
    ...(setup.maxCost !== undefined ? { maxCost: setup.maxCost } : {}),
    maxTokens: 4096,
    ...(setup.contextWindow !== undefined ? { contextWindow: setup.contextWindow } : {}),
    bound: (sessionId) => boundOutput(join(setup.dataDir, "output"), sessionId),
    outputDir: join(setup.dataDir, "output"),
    version: "0.0.0-test",
    ...(setup.askPolicy ? { askPolicy: setup.askPolicy } : {}),
  };
}

/** The messages a recorded request sent. */
/** The messages a request sent, without the prompt-cache marks the provider adds. */
export function sentMessages(request: RecordedRequest | undefined): Message[] {
  if (!request) throw new Error("no such request was made");
  return withoutCacheMarks(request.body.messages) as Message[];
}

/** A sent body with the cache_control marks removed, to compare with what the loop asked for. */
export function withoutCacheMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "cache_control").map(([k, v]) => [k, withoutCacheMarks(v)]));
  }
  return value;
}

/** The tool_result blocks of the last message a request sent (the results of the previous turn). */
export function sentResults(request: RecordedRequest | undefined): ToolResultBlock[] {
  const last = sentMessages(request).at(-1);
  if (last?.role !== "user") throw new Error("the request does not end with a user message");
  return last.content.filter((b): b is ToolResultBlock => b.type === "tool_result");
}

/**
 * Checks the conversation is one the provider accepts: it starts with a user message, no two
 * assistant messages are adjacent, and each assistant tool_use has its tool_result in the next
 * message (a user message), with no results for calls that were not made.
 */
export function conversationProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  if (messages[0]?.role !== "user") problems.push("the first message is not from the user");
  messages.forEach((message, i) => {
    const next = messages[i + 1];
    if (message.role === "assistant" && next?.role === "assistant") problems.push(`messages ${i} and ${i + 1} are both assistant`);
    const answered = next?.role === "user" ? resultIds(next) : [];
    for (const id of callIds(message)) if (!answered.includes(id)) problems.push(`tool_use ${id} (message ${i}) has no tool_result in the next message`);
    const made = i > 0 ? callIds(messages[i - 1]!) : [];
    for (const id of resultIds(message)) if (!made.includes(id)) problems.push(`tool_result ${id} (message ${i}) answers no call`);
  });
  return problems;
}

function callIds(message: Message): string[] {
  if (message.role !== "assistant") return [];
  return message.content.filter((b): b is ToolUseBlock => b.type === "tool_use").map((b) => b.id);
}

function resultIds(message: Message): string[] {
  if (message.role !== "user") return [];
  return message.content.filter((b): b is ToolResultBlock => b.type === "tool_result").map((b) => b.tool_use_id);
}

/**
 * Registers the hooks a test file uses around one shared kit: start it before all, check after each
 * test that every scripted step was consumed, close it after all. Returns the kit's getter.
 * `plain`: chalk writes no colour while the file runs (what a test reads is the text alone).
 */
export function useKit(options: { plain?: boolean } = {}): () => Kit {
  let kit: Kit | undefined;
  const level = chalk.level;
  beforeAll(async () => {
    if (options.plain) chalk.level = 0;
    kit = await startKit();
  });
  afterEach(() => {
    expect(kit!.fake.pending()).toBe(0);
    kit!.fake.reset();
  });
  afterAll(async () => {
    chalk.level = level;
    await kit!.close();
  });
  return () => kit!;
}
