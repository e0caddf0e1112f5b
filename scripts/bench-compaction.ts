// Compaction over a long session of tool output, in process: the largest request after the first
// compaction as a share of the window, and the tokens sent against the full history every turn.
import type { CompactionFigures } from "../test/support/long-session.ts";
import type { Row } from "./bench-report.ts";

export function compactionRows(compaction: CompactionFigures): Row[] {
  return [
    {
      figure: `${compaction.turns}-turn session of tool output (a few KB a turn) in a ${compaction.contextWindow / 1000}k window, in process: largest request after the first compaction, share of the window`,
      shown: `${(compaction.maxShareAfterFirst * 100).toFixed(1)}% (${Object.entries(compaction.compactions).map(([m, n]) => `${n} ${m}`).join(", ")})`,
      value: compaction.maxShareAfterFirst,
      target: { max: 0.8, text: "at most 80%" },
    },
    {
      figure: "... tokens sent over that session (characters / 4, summary calls included) vs the full history every turn",
      shown: `${(compaction.sentTokens / 1e6).toFixed(2)} M vs ${(compaction.uncompactedTokens / 1e6).toFixed(2)} M (${((compaction.sentTokens / compaction.uncompactedTokens) * 100).toFixed(0)}%)`,
    },
  ];
}
