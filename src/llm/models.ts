// The model table: context window, output limit and prices (USD per million tokens).
import type { Usage } from "../agent/types.ts";

export type ModelInfo = {
  id: string;
  contextWindow: number;
  maxOutput: number;
  price: { input: number; output: number; cacheWrite: number; cacheRead: number };
};

export const DEFAULT_MODEL = "claude-sonnet-5-5";

const M = 1_000_000;
const K = 1_000;
const row = (id: string, contextWindow: number, maxOutput: number, input: number, output: number): ModelInfo => ({
  id,
  contextWindow,
  maxOutput,
  price: { input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 },
});

const MODELS: readonly ModelInfo[] = [
  row("claude-sonnet-5-5", M, 128 * K, 2, 10),
  row("claude-opus-5-5", M, 128 * K, 4, 20),
  row("claude-fable-5-2", M, 128 * K, 8, 40),
  row("claude-sonnet-5", M, 128 * K, 2, 10),
  row("claude-opus-5", M, 128 * K, 5, 25),
  row("claude-haiku-4-5", 200 * K, 64 * K, 1, 5),
  row("claude-sonnet-4-5", 200 * K, 64 * K, 3, 15),
  row("claude-opus-4-5", 200 * K, 64 * K, 5, 25),
];

/** Known models by id or dated id (`claude-haiku-4-5-20251001`); unknown ones get safe defaults. */
export function modelInfo(id: string): ModelInfo & { known: boolean } {
  const found = MODELS.find((m) => id === m.id || id.startsWith(`${m.id}-2`));
  if (found) return { ...found, known: true };
  return { ...row(id, 200 * K, 32 * K, 0, 0), known: false };
}

export function costUsd(model: string, usage: Usage): number {
  const { price } = modelInfo(model);
  const dollars =
    usage.input_tokens * price.input +
    usage.output_tokens * price.output +
    usage.cache_creation_input_tokens * price.cacheWrite +
    usage.cache_read_input_tokens * price.cacheRead;
  return Math.round((dollars / M) * 1e6) / 1e6;
}

/** The pricing a run uses: null for a model whose prices are unknown, never a made-up $0. */
export function costFunction(model: string): (usage: Usage) => number | null {
  if (!modelInfo(model).known) return () => null;
  return (usage) => costUsd(model, usage);
}
