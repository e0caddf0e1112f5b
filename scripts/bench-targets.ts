/**
 * Targets as ratios to a floor of the same run. Each is the absolute target it replaces divided by
 * that floor in the run of 2026-11-30 (one-line program 16.0 ms and 12.5 MiB RSS, its binary
 * 104.1 MiB, `bun -e 1` 17.6 ms, a bash spawn 4.18 ms, the terminal's floor 19.7 ms, `cat` 8.1 ms),
 * except `--version`, whose 10 ms is below its own floor there: it may add a quarter to it.
 */
export const TARGET = {
  version: 1.25, // was at most 10 ms
  oneShot: 3.75, // 60 ms
  oneShotMemory: 4.8, // 60 MiB
  perTurn: 1.2, // 5 ms
  reload: 1.1, // 20 ms
  parserLoad: 1.4, // 25 ms
  // 100 µs over tree-sitter's parse alone of the same lines, in process (17.5 µs and 11.5 µs on 2026-12-01)
  analysis: 5.5,
  analysisPaths: 8.5,
  resume: 6.25, // 100 ms
  binary: 1.1, // 115 MiB
  terminalStart: 2.5, // 50 ms
  keystroke: 2, // 16 ms
  terminalMemory: 12, // 150 MiB
  stalledClients: 16, // 200 MiB
};
