// What the terminal says about tokens and money: one line per answer, and the session's totals.
import type { StampedEvent, Usage } from "../app/events.ts";
import { promptTokens } from "../app/model-window.ts";
import type { SpendEvent } from "../session/store.ts";

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

export type SessionSpend = Spend & {
  runs: number;
  /** runs that ended without a result (killed), or are still going */
  unfinished: number;
  /** compactions outside any run (the terminal's /compact) */
  compactions: number;
};

/**
 * The totals of a session's stored events: each run's result, or for a run with no result (killed,
 * or still going) or a result that lost its usage (an internal error), the sum of its model turns
 * and summary calls; and every compaction outside a run (the terminal's /compact), whose summary
 * call no result holds. One unknown cost makes the total unknown.
 */
export function sessionSpend(events: readonly (SpendEvent | StampedEvent)[]): SessionSpend {
  const total: SessionSpend = { usage: noUsage(), cost_usd: 0, runs: 0, unfinished: 0, compactions: 0 };
  let turns: Spend = { usage: noUsage(), cost_usd: 0 };
  /** the run under way had a prompt or a model turn (a lone compaction stored before outside_run existed is no run) */
  let started = false;
  const close = (result?: Spend) => {
    if (result || started) total.runs++;
    if (!result && started) total.unfinished++;
    const lostUsage = result && usageTotal(result.usage) === 0 && usageTotal(turns.usage) > 0;
    if (result && !lostUsage) addTo(total, result);
    else if (started) addTo(total, turns);
    turns = { usage: noUsage(), cost_usd: 0 };
    started = false;
  };
  for (const event of events) {
    const spent = { usage: "usage" in event && event.usage ? event.usage : noUsage(), cost_usd: ("cost_usd" in event ? event.cost_usd : null) ?? null };
    if (event.type === "user") {
      if (started) close();
      started = true;
    }
    if (event.type === "assistant") {
      started = true;
      addTo(turns, spent);
    }
    if (event.type === "compaction" && "usage" in event && event.usage) {
      const outside = "outside_run" in event && event.outside_run === true;
      if (outside) total.compactions++;
      addTo(outside ? total : turns, spent);
    }
    // The hidden call that named the session is in no run's result: the totals add it on its own.
    if (event.type === "title" && "usage" in event && event.usage) addTo(total, spent);
    if (event.type === "result") close(spent);
  }
  if (started) close();
  return total;
}

function addTo(into: Spend, { usage, cost_usd }: Spend): void {
  for (const key of Object.keys(into.usage) as (keyof Usage)[]) into.usage[key] += usage[key];
  into.cost_usd = into.cost_usd === null || cost_usd === null ? null : Math.round((into.cost_usd + cost_usd) * 1e6) / 1e6;
}

function noUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

function usageTotal(usage: Usage): number {
  return usage.input_tokens + usage.output_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
}
