import type { ModelRequest, ProviderEvent } from "../../src/agent/types.ts";
import { anthropicStream, type AnthropicOptions } from "../../src/llm/anthropic.ts";

export const TEST_API_KEY = "sk-ant-test";

/** A one-turn request with one tool, as the loop would build it. */
export function sampleRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-test-1",
    system: "You are a test.",
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    tools: [
      {
        name: "read",
        description: "Reads a file",
        input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ],
    max_tokens: 1024,
    ...overrides,
  };
}

export type ProviderRun = {
  events: ProviderEvent[];
  /** the delays the provider asked to wait, in order (the injected sleep records them and returns at once) */
  sleeps: number[];
  last: ProviderEvent | undefined;
};

/**
 * Streams one turn through rein's Anthropic provider against `baseURL`, with a no-wait sleep that records its
 * delays. `onEvent` sees each event as it arrives (e.g. to abort on the first text).
 */
export async function runProvider(
  baseURL: string,
  options: Partial<AnthropicOptions> & {
    request?: ModelRequest;
    signal?: AbortSignal;
    onEvent?: (event: ProviderEvent) => void;
  } = {},
): Promise<ProviderRun> {
  const sleeps: number[] = [];
  const { request, signal, onEvent, ...rest } = options;
  const stream = anthropicStream({
    apiKey: TEST_API_KEY,
    baseURL,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...rest,
  });
  const events: ProviderEvent[] = [];
  for await (const event of stream(request ?? sampleRequest(), signal ?? new AbortController().signal)) {
    events.push(event);
    onEvent?.(event);
  }
  return { events, sleeps, last: events.at(-1) };
}

export function ofType<T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T): Extract<ProviderEvent, { type: T }>[] {
  return events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
}
