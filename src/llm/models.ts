// What rein knows of a model: its context window, output limit, prices (USD per million tokens, or
// null when unknown: a cost is then null, never $0) and what it supports. The built-in tables are
// here; configured models come from the config's `providers` (providers.ts).
import type { Usage } from "../agent/types.ts";

export type Prices = { input: number; output: number; cacheWrite: number; cacheRead: number };
export type Capabilities = { tools: boolean; images: boolean; caching: boolean; reasoning: boolean };

/** How far an OpenAI-compatible server departs from OpenAI's own Chat Completions (pi's names). */
export type ChatCompat = {
  maxTokensField: "max_tokens" | "max_completion_tokens";
  supportsUsageInStreaming: boolean;
  requiresToolResultName: boolean;
  requiresAssistantAfterToolResult: boolean;
  /** the model takes images (from its capabilities); without, each image becomes a note */
  supportsImages: boolean;
};

/** Claude Code's effort levels, lowest first (an agent file's `effort`). */
export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

export type ModelInfo = {
  /** the model's id at its provider (`gpt-5.2`, `claude-sonnet-5-5`) */
  id: string;
  provider: string;
  contextWindow: number;
  maxOutput: number;
  price: Prices | null;
  capabilities: Capabilities;
  /** false for a model no table lists (it gets its provider's defaults) */
  known: boolean;
  compat?: Partial<ChatCompat>;
  /** the effort levels the model takes (Anthropic's `output_config.effort`, OpenAI's `reasoning_effort`); none: no effort is sent */
  effort?: readonly EffortLevel[];
};

export type ModelRow = Omit<ModelInfo, "provider" | "known"> & { /** the config file that listed it; none for the built-in tables */ source?: string };

/** Looks a `provider/model` (or bare Anthropic) name up; every session uses one. */
export type ModelCatalog = {
  info(name: string): ModelInfo;
  /** why a model cannot be used (an unknown provider, its key missing), or undefined when it can */
  problem?(name: string): string | undefined;
  /** the model a name stands for: an alias (`opus`) for the provider of `current`, `inherit` as `current`, anything else as written */
  resolve?(name: string, current?: string): string;
};

export const DEFAULT_MODEL = "claude-sonnet-5-5";

const M = 1_000_000;
const K = 1_000;
const ALL: Capabilities = { tools: true, images: true, caching: true, reasoning: true };

const claude = (id: string, contextWindow: number, maxOutput: number, input: number, output: number, effort: readonly EffortLevel[] = EFFORT_LEVELS): ModelRow => ({
  id,
  contextWindow,
  maxOutput,
  price: { input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 },
  capabilities: ALL,
  ...(effort.length ? { effort } : {}),
});

export const ANTHROPIC_MODELS: readonly ModelRow[] = [
  claude("claude-sonnet-5-5", M, 128 * K, 2, 10),
  claude("claude-opus-5-5", M, 128 * K, 4, 20),
  claude("claude-fable-5-2", M, 128 * K, 8, 40),
  claude("claude-sonnet-5", M, 128 * K, 2, 10),
  claude("claude-opus-5", M, 128 * K, 5, 25),
  claude("claude-haiku-5-5", M, 128 * K, 0.1, 0.5),
  // Which take an effort, and which levels, as Claude Code 2.1.332's model table says.
  claude("claude-haiku-4-5", 200 * K, 64 * K, 1, 5, []),
  claude("claude-sonnet-4-5", 200 * K, 64 * K, 3, 15, []),
  claude("claude-opus-4-5", 200 * K, 64 * K, 5, 25, ["low", "medium", "high"]),
];

const gpt = (id: string, contextWindow: number, maxOutput: number, price: [number, number, number] | null, reasoning: boolean, effort: readonly EffortLevel[] = []): ModelRow => ({
  id,
  contextWindow,
  maxOutput,
  // OpenAI caches on its own: no write surcharge, cached input at its own price.
  price: price && { input: price[0], output: price[1], cacheWrite: price[0], cacheRead: price[2] },
  capabilities: { tools: true, images: true, caching: true, reasoning },
  ...(effort.length ? { effort } : {}),
});

/** The reasoning models' `reasoning_effort` values that share a name with an effort level. */
const GPT5_EFFORT: readonly EffortLevel[] = ["low", "medium", "high"];

export const OPENAI_MODELS: readonly ModelRow[] = [
  gpt("gpt-5.2", 400 * K, 128 * K, null, true, [...GPT5_EFFORT, "xhigh"]),
  gpt("gpt-5", 400 * K, 128 * K, [1.25, 10, 0.125], true, GPT5_EFFORT),
  gpt("gpt-5-mini", 400 * K, 128 * K, [0.25, 2, 0.025], true, GPT5_EFFORT),
  gpt("gpt-4.1", 1_047_576, 32_768, [2, 8, 0.5], false),
  gpt("gpt-4o", 128 * K, 16_384, [2.5, 10, 1.25], false),
  gpt("gpt-4o-mini", 128 * K, 16_384, [0.15, 0.6, 0.075], false),
];

/** A row of `rows` by id, or by a dated id (`claude-haiku-4-5-20251001`, `gpt-4o-2024-08-06`). */
export function findRow(rows: readonly ModelRow[], id: string): ModelRow | undefined {
  return rows.find((m) => id === m.id) ?? rows.find((m) => id.startsWith(`${m.id}-2`));
}

export function usdFor(price: Prices, usage: Usage): number {
  const dollars =
    usage.input_tokens * price.input +
    usage.output_tokens * price.output +
    usage.cache_creation_input_tokens * price.cacheWrite +
    usage.cache_read_input_tokens * price.cacheRead;
  return Math.round((dollars / M) * 1e6) / 1e6;
}

/** The pricing a run uses: null for a model whose prices are unknown, never a made-up $0. */
export function pricing(info: Pick<ModelInfo, "price">): (usage: Usage) => number | null {
  const { price } = info;
  if (!price) return () => null;
  return (usage) => usdFor(price, usage);
}

/**
 * The effort a model is sent for the level asked: that level, or the highest it takes below it
 * (`max` on a model that tops out at `high` is `high`, as Claude Code's picker caps it); none when it
 * takes no effort, or no level was asked.
 */
export function effortFor(info: Pick<ModelInfo, "effort">, asked: EffortLevel | undefined): EffortLevel | undefined {
  if (!asked || !info.effort?.length) return undefined;
  const rank = EFFORT_LEVELS.indexOf(asked);
  return [...info.effort].reverse().find((level) => EFFORT_LEVELS.indexOf(level) <= rank) ?? info.effort[0];
}
