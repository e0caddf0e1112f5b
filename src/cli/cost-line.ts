// What the terminal says about tokens and money: one line per answer, and the session's totals.
import type { StampedEvent, Usage } from "../session/events.ts";
import { promptTokens } from "../session/model-window.ts";

export type Spend = { usage: Usage; cost_usd: number | null };

/** The share of the input read from the cache, in whole percent; undefined when nothing was sent. */
export function cachedPercent(usage: Usage): number | undefined {
  const input = promptTokens(usage);
  return input > 0 ? Math.round((usage.cache_read_input_tokens / input) * 100) : undefined;
}

/**
 * `tokens: in 1200 (cache read 1000, write 30) · out 7 · $0.0042` (`in` is the input the cache did
 * not serve, as the API counts it); a model without prices says "cost unknown". The terminal's
 * status line, /cost and `rein sessions show` all count this way; `label` names what is counted.
 */
export function costLine({ usage, cost_usd }: Spend, label = "tokens"): string {
  const money = cost_usd === null ? "cost unknown" : `$${cost_usd.toFixed(4)}`;
  return (
    `${label}: in ${usage.input_tokens} (cache read ${usage.cache_read_input_tokens}, write ${usage.cache_creation_input_tokens})` +
    ` · out ${usage.output_tokens} · ${money}`
  );
}

/**
 * The totals of a session's stored events: every run's result, and every compaction outside a run
 * (the terminal's /compact), whose summary call no result holds. One unknown cost makes the total unknown.
 */
export function sessionSpend(events: readonly StampedEvent[]): Spend & { runs: number; compactions: number } {
  const total: Spend & { runs: number; compactions: number } = {
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    cost_usd: 0,
    runs: 0,
    compactions: 0,
  };
  const add = (usage: Usage, cost: number | null) => {
    for (const key of Object.keys(total.usage) as (keyof Usage)[]) total.usage[key] += usage[key];
    total.cost_usd = total.cost_usd === null || cost === null ? null : Math.round((total.cost_usd + cost) * 1e6) / 1e6;
  };
  for (const event of events) {
    if (event.type === "result") {
      total.runs++;
      add(event.usage, event.cost_usd);
    }
    if (event.type === "compaction" && event.outside_run && event.usage) {
      total.compactions++;
      add(event.usage, event.cost_usd ?? null);
    }
  }
  return total;
}
