// Claude Code's model names resolve against the provider registry: the newest model of the family
// for the provider in use, `inherit` as the session's model, and a bare word that is no model is
// refused with the list, never sent to an API.
import { describe, expect, test } from "bun:test";
import { resolveAlias, sameFamily } from "../../../src/llm/aliases.ts";
import { catalog, providerTable, resolveModel } from "../../../src/llm/providers.ts";
import type { ModelRow } from "../../../src/llm/models.ts";

const row = (id: string): ModelRow => ({ id, contextWindow: 1000, maxOutput: 100, price: null, capabilities: { tools: true, images: true, caching: false, reasoning: false } });
const table = providerTable([
  { name: "openrouter", api: "openai-chat", baseURL: "https://openrouter.ai/api/v1", local: false, models: [row("anthropic/claude-opus-5"), row("anthropic/claude-opus-5-5"), row("anthropic/claude-3-5-haiku")], defaults: { contextWindow: 1, maxOutput: 1, capabilities: row("x").capabilities }, source: "test" },
]);

describe("model aliases", () => {
  test("each family's newest Anthropic model, whatever the order of the table", () => {
    expect(resolveAlias("sonnet", undefined, table)).toBe("claude-sonnet-5-5");
    expect(resolveAlias("opus", "claude-haiku-4-5", table)).toBe("claude-opus-5-5");
    expect(resolveAlias("haiku", undefined, table)).toBe("claude-haiku-5-5");
    expect(resolveAlias("fable", undefined, table)).toBe("claude-fable-5-2");
    expect(resolveAlias("Opus", undefined, table)).toBe("claude-opus-5-5");
  });

  test("the provider in use first: its newest of the family, named provider/model", () => {
    expect(resolveAlias("opus", "openrouter/qwen/qwen3-coder", table)).toBe("openrouter/anthropic/claude-opus-5-5");
    expect(resolveAlias("haiku", "openrouter/x", table)).toBe("openrouter/anthropic/claude-3-5-haiku");
    // OpenAI lists no opus: Anthropic's.
    expect(resolveAlias("opus", "openai/gpt-5.2", table)).toBe("claude-opus-5-5");
  });

  test("inherit is the session's model; other names stay as written", () => {
    expect(resolveAlias("inherit", "openai/gpt-5", table)).toBe("openai/gpt-5");
    expect(resolveAlias("inherit", "opus", table)).toBe("claude-opus-5-5");
    expect(resolveAlias("claude-opus-5", "openai/gpt-5", table)).toBe("claude-opus-5");
    expect(catalog(table).resolve!("haiku", "openrouter/x")).toBe("openrouter/anthropic/claude-3-5-haiku");
  });

  test("resolveModel never sends an alias as written, and refuses a bare word that is no model", () => {
    const opus = resolveModel("opus", table);
    expect(typeof opus === "string" ? opus : opus.id).toBe("claude-opus-5-5");
    const typo = resolveModel("opsu", table);
    expect(typo).toBe(
      'unknown model "opsu": use one of claude-sonnet-5-5, claude-opus-5-5, claude-fable-5-2, claude-sonnet-5, claude-opus-5, claude-haiku-5-5, claude-haiku-4-5, claude-sonnet-4-5, claude-opus-4-5, an alias (sonnet, opus, haiku, fable, inherit) or provider/model (rein models lists them all)',
    );
    // A full id rein's table does not list still goes through (a newer model, a dated one).
    expect(typeof resolveModel("claude-opus-6-0", table)).toBe("object");
  });

  test("sameFamily: an alias of the family the current model is of (a subagent keeps its parent's model then)", () => {
    expect(sameFamily("opus", "claude-opus-4-5")).toBe(true);
    expect(sameFamily("Sonnet", "openrouter/anthropic/claude-sonnet-4-5")).toBe(true);
    expect(sameFamily("opus", "claude-sonnet-5-5")).toBe(false);
    expect(sameFamily("haiku", undefined)).toBe(false);
    expect(sameFamily("claude-opus-4-5", "claude-opus-4-5")).toBe(false);
    expect(sameFamily("inherit", "claude-opus-4-5")).toBe(false);
  });
});
