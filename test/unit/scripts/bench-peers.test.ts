// The peers' rows of BENCHMARKS.md: rein against the fastest peer of each figure, a peer whose
// figure came out at or below zero (two medians' difference on a noisy machine) never the floor,
// and one line saying why when the peers were not measured.
import { expect, test } from "bun:test";
import { peerRows, type PeerFigures } from "../../../scripts/bench-peers.ts";
import { reportTable } from "../../../scripts/bench-report.ts";

const per = (rein: number, cc: number, oc: number, pi: number) => ({ rein, cc, oc, pi });
const figures: PeerFigures = {
  versions: { cc: "2.1.332 (Claude Code)", oc: "1.18.33", pi: "0.73.1" },
  versionMs: per(9, 15, 1600, 2800),
  oneShotMs: per(130, 2400, 10000, 2500),
  perTurnMs: per(7.7, -2.8, 1900, 200),
  peakMiB: per(43.6, 227, 563, 177),
  chars: per(3705, 52619, 29076, 4987),
  tools: per(9, 12, 10, 4),
};

test("each figure is set against its fastest peer; a peer at or below zero is passed over", () => {
  const table = reportTable(peerRows(figures)).join("\n");
  expect(table).toContain("| rein 130 / Claude Code 2400 / OpenCode 10000 / pi 2500 ms | 0.054x Claude Code (2400.0 ms) | at most 0.10x Claude Code (240.0 ms in this run) | yes |");
  expect(table).toContain("| rein 7.70 / Claude Code -2.80 / OpenCode 1900.00 / pi 200.00 ms | 0.038x pi (200.0 ms) | at most 0.50x pi (100.0 ms in this run) | yes |");
  expect(table).toContain("rein 3,705 (9 tools) / Claude Code 52,619 (12 tools) / OpenCode 29,076 (10 tools) / pi 4,987 (4 tools) characters");
});

test("peers not measured: one row that says why", () => {
  expect(peerRows({ skipped: "not measured: offline.sh needs root" })).toEqual([
    { figure: "rein beside Claude Code, OpenCode and pi (`bun run bench --peers`)", shown: "not measured: offline.sh needs root" },
  ]);
});
