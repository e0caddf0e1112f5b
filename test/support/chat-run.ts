import type { ModelRequest, ProviderEvent } from "../../src/agent/types.ts";
import { openaiChatStream, type OpenAIChatOptions } from "../../src/llm/openai-chat.ts";
import { sampleRequest, type ProviderRun } from "./provider-run.ts";

/** Streams one turn through the real Chat Completions provider against `baseURL`, with a no-wait sleep that records its delays. */
export async function runChat(
  baseURL: string,
  options: Partial<OpenAIChatOptions> & { request?: ModelRequest; signal?: AbortSignal } = {},
): Promise<ProviderRun> {
  const sleeps: number[] = [];
  const { request, signal, ...rest } = options;
  const stream = openaiChatStream({ baseURL, apiKey: "sk-test", sleep: async (ms) => void sleeps.push(ms), ...rest });
  const events: ProviderEvent[] = [];
  for await (const event of stream(request ?? sampleRequest({ model: "fake-model" }), signal ?? new AbortController().signal)) events.push(event);
  return { events, sleeps, last: events.at(-1) };
}
