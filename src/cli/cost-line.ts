// What the terminal says about tokens and money: one line per answer, and the session's totals.
import type { StampedEvent, Usage } from "../session/events.ts";

export type Spend = { usage: Usage; cost_usd: number | null };

/** `tokens: in 1200 (cache read 1000, write 30) · out 7 · $0.0042`; a model without prices says "cost unknown". */
export function costLine({ usage, cost_usd }: Spend): string {
  const money = cost_usd === null ? "cost unknown" : `$${cost_usd.toFixed(4)}`;
  return (
    `tokens: in ${usage.input_tokens} (cache read ${usage.cache_read_input_tokens}, write ${usage.cache_creation_input_tokens})` +
    ` · out ${usage.output_tokens} · ${money}`
  );
}

/** The totals of every run in a session's stored events; one run with an unknown cost makes the total unknown. */
export function sessionSpend(events: readonly StampedEvent[]): Spend & { runs: number } {
  const total: Spend & { runs: number } = {
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    cost_usd: 0,
    runs: 0,
  };
  for (const event of events) {
    if (event.type !== "result") continue;
    total.runs++;
    for (const key of Object.keys(total.usage) as (keyof Usage)[]) total.usage[key] += event.usage[key];
    total.cost_usd = total.cost_usd === null || event.cost_usd === null ? null : Math.round((total.cost_usd + event.cost_usd) * 1e6) / 1e6;
  }
  return total;
}
