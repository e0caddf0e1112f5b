// rein's conversation as Chat Completions messages, under the compat flags servers need.
import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/agent/types.ts";
import type { ChatCompat } from "../../../src/llm/models.ts";
import { chatBody } from "../../../src/llm/openai-chat.ts";
import { sampleRequest } from "../../support/provider-run.ts";

const base: ChatCompat = { maxTokensField: "max_tokens", supportsUsageInStreaming: true, requiresToolResultName: false, requiresAssistantAfterToolResult: false, supportsImages: true };
const conversation: Message[] = [
  { role: "user", content: [{ type: "text", text: "read it" }] },
  { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "read", input: { path: "a" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "no such file", is_error: true }, { type: "text", text: "and then?" }] },
];
const body = (compat: Partial<ChatCompat>, messages = conversation) => chatBody(sampleRequest({ model: "m", messages }), { ...base, ...compat }) as Record<string, any>;

describe("compat", () => {
  test("by default: the tool message has no name, an error result says so, the user's text follows the tool message", () => {
    const messages = body({}).messages;
    expect(messages.slice(3)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "Error: no such file" },
      { role: "user", content: "and then?" },
    ]);
  });

  test("requiresToolResultName puts the tool's name on its result", () => {
    expect(body({ requiresToolResultName: true }).messages[3]).toMatchObject({ role: "tool", name: "read" });
  });

  test("requiresAssistantAfterToolResult puts an assistant turn between the tool results and the next user text", () => {
    expect(body({ requiresAssistantAfterToolResult: true }).messages.slice(3).map((m: { role: string }) => m.role)).toEqual(["tool", "assistant", "user"]);
  });

  test("maxTokensField and supportsUsageInStreaming shape the request", () => {
    const plain = body({ maxTokensField: "max_completion_tokens", supportsUsageInStreaming: false });
    expect(plain.max_completion_tokens).toBe(1024);
    expect(plain.max_tokens).toBeUndefined();
    expect(plain.stream_options).toBeUndefined();
  });

  test("no tools: the request has no tools key (some servers refuse an empty list)", () => {
    expect(chatBody(sampleRequest({ model: "m", tools: [] }), base)).not.toHaveProperty("tools");
  });

  test("a user's image becomes an image_url part beside the text", () => {
    const messages = body({}, [{ role: "user", content: [{ type: "text", text: "what is this" }, { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAAA" } }] }]).messages;
    expect(messages[1].content).toEqual([{ type: "text", text: "what is this" }, { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA" } }]);
  });

  test("a model without images (a local one by default) gets a note where each image was, from the user or a tool", () => {
    const image = { type: "image" as const, source: { type: "base64" as const, media_type: "image/png", data: "AAAA" } };
    const messages = body({ supportsImages: false }, [
      { role: "user", content: [{ type: "text", text: "what is this" }, image] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "read", input: { path: "p.png" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: [{ type: "text", text: "p.png" }, image] }] },
    ]).messages;
    expect(JSON.stringify(messages)).not.toContain("image_url");
    expect(messages[1].content).toBe("what is this\n\n(an image was left out here: this model does not take images)");
    expect(messages[3]).toEqual({ role: "tool", tool_call_id: "call_1", content: "p.png\n(an image was left out here: this model does not take images)" });
  });
});
