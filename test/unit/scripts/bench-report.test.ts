import { expect, test } from "bun:test";
import { withBaseline } from "../../../scripts/bench-baseline.ts";
import { reportTable, type Floor } from "../../../scripts/bench-report.ts";

const printer: Floor = { name: "the one-line program", value: 16, unit: "ms" };

test("a time is shown next to its ratio to the floor, and its target is a ratio with the bound it gives in this run", () => {
  const [head, , oneShot, slow] = reportTable([
    { figure: "one-shot", shown: "60.0 ms", value: 60, floor: printer, target: { ratio: 3.75 } },
    { figure: "slow day", shown: "130.0 ms", value: 130, floor: { ...printer, value: 32 }, target: { ratio: 3.75 } },
  ]);
  expect(head).toBe("| figure | measured | x floor | target | met |");
  expect(oneShot).toBe("| one-shot | 60.0 ms | 3.75x the one-line program (16.0 ms) | at most 3.75x the one-line program (60.0 ms in this run) | yes |");
  // Twice as slow a machine: the same verdict, although 130 ms is over twice the bound of the first run.
  expect(slow).toBe("| slow day | 130.0 ms | 4.06x the one-line program (32.0 ms) | at most 3.75x the one-line program (120.0 ms in this run) | **no** |");
});

test("figures that do not move with the machine keep an absolute bound; rows without a target leave the columns empty", () => {
  const [, , share, chars, context] = reportTable([
    { figure: "cached", shown: "93.7%", value: 0.937, target: { min: 0.9, text: "at least 90%" } },
    { figure: "preamble", shown: "9000 characters", value: 9000, target: { max: 8000, text: "at most 8,000 characters" } },
    { figure: "floor: bun -e 1", shown: "17.6 ms" },
  ]);
  expect(share).toBe("| cached | 93.7% |  | at least 90% | yes |");
  expect(chars).toBe("| preamble | 9000 characters |  | at most 8,000 characters | **no** |");
  expect(context).toBe("| floor: bun -e 1 | 17.6 ms |  |  |  |");
});

test("a tiny ratio keeps two significant digits", () => {
  const [, , row] = reportTable([{ figure: "analysis", shown: "15.5 µs", value: 0.0155, floor: { ...printer, value: 17.6 }, target: { ratio: 0.0057 } }]);
  expect(row).toContain("| 0.00088x the one-line program (17.6 ms) | at most 0.0057x the one-line program (0.1 ms in this run) | yes |");
});

test("with a baseline, each row shows the baseline's figure and its ratio to it; rows it did not measure leave both empty", () => {
  const [head, , measured, newer] = reportTable(
    [
      { figure: "one-shot", shown: "44.0 ms", value: 44, baseline: { shown: "40.0 ms", value: 40 }, floor: { ...printer, name: "efee05c", value: 40 }, target: { ratio: 1.1 } },
      { figure: "hooks", shown: "8.7 ms", value: 8.7 },
    ],
    "efee05c",
  );
  expect(head).toBe("| figure | measured | efee05c | x efee05c | x floor | target | met |");
  expect(measured).toBe("| one-shot | 44.0 ms | 40.0 ms | 1.10x | 1.10x efee05c (40.0 ms) | at most 1.10x efee05c (44.0 ms in this run) | yes |");
  expect(newer).toBe("| hooks | 8.7 ms |  |  |  |  |  |");
});

test("the baseline's rows are matched to today's by figure, and a row that has its own baseline keeps it", () => {
  const rows = withBaseline(
    [
      { figure: "one-shot", shown: "44.0 ms", value: 44 },
      { figure: "lean", shown: "45 MiB", value: 45, baseline: { shown: "40 MiB", value: 40 } },
      { figure: "hooks", shown: "8.7 ms", value: 8.7 },
    ],
    [
      { figure: "one-shot", shown: "33.0 ms", value: 33 },
      { figure: "lean", shown: "99 MiB", value: 99 },
    ],
  );
  expect(rows.map((r) => r.baseline)).toEqual([{ shown: "33.0 ms", value: 33 }, { shown: "40 MiB", value: 40 }, undefined]);
});
