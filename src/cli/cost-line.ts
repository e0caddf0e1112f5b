// What the terminal says about tokens and money: one line per answer, and the session's totals.
import type { EventOf, StampedEvent, Usage } from "../session/events.ts";

export type Spend = { usage: Usage; cost_usd: number | null };

/** `tokens: in 1200 (cache read 1000, write 30) · out 7 · $0.0042`; a model without prices says "cost unknown". */
export function costLine({ usage, cost_usd }: Spend): string {
  const money = cost_usd === null ? "cost unknown" : `$${cost_usd.toFixed(4)}`;
  return (
    `tokens: in ${usage.input_tokens} (cache read ${usage.cache_read_input_tokens}, write ${usage.cache_creation_input_tokens})` +
    ` · out ${usage.output_tokens} · ${money}`
  );
}

/**
 * The totals of a session's stored events: every run's result, and every compaction's summary call
 * that no result holds (the terminal's /compact, outside any run; or in a run that never ended). A
 * compaction inside a run is in that run's result already. One unknown cost makes the total unknown.
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
  /** compactions with a summary call since the last result: a result closing their run holds them */
  let open: EventOf<"compaction">[] = [];
  const countOpen = () => {
    for (const compaction of open) add(compaction.usage!, compaction.cost_usd ?? null);
    total.compactions += open.length;
    open = [];
  };
  for (const event of events) {
    if (event.type === "compaction" && event.usage) open.push(event);
    if (event.type === "user") countOpen();
    if (event.type !== "result") continue;
    open = [];
    total.runs++;
    add(event.usage, event.cost_usd);
  }
  countOpen();
  return total;
}
