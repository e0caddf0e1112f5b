// The terminal's worker lines: one per background worker of the session still going (its name,
// state, cost and last action), under the live rows, while it runs; none without a team.
import chalk from "chalk";
import type { Session } from "../../session/session.ts";
import { visible } from "./editor.ts";

export function workerRows(session: Session | undefined, width: number): string[] {
  const team = session?.team;
  if (!team) return [];
  return team
    .list(session!.id)
    .filter((w) => w.state === "queued" || w.state === "running")
    .map((w) => {
      const cost = w.cost === null ? "cost unknown" : `$${w.cost.toFixed(4)}`;
      const line = `⧗ ${w.kind === "bash" ? "bash" : `worker ${w.name ?? w.agent}`} · ${w.state} · ${cost}${w.lastAction ? ` · ${w.lastAction}` : ""}`;
      return chalk.dim(visible(line).slice(0, Math.max(10, width - 1)));
    });
}
