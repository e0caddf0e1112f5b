import { expect, test } from "bun:test";
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
