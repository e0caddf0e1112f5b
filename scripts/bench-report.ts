// BENCHMARKS.md's table. Absolute times on these machines move by 2x between runs, so a time's target
// is a ratio to a floor measured in the same run (the compiled one-line program, `bun -e 1`, spawning
// bash), shown next to the absolute figure; figures that do not move with the machine (shares,
// characters) keep an absolute target.

export type Floor = { name: string; value: number; unit: "ms" | "µs" | "MiB" };

/** `ratio`: at most this many times the floor; `max` / `min`: a bound in the figure's own unit. */
export type Target = { ratio: number } | { max: number; text: string } | { min: number; text: string };

export type Row = {
  figure: string;
  /** the measured figure as it reads, with its unit */
  shown: string;
  /** the number compared with the floor and the target */
  value?: number;
  floor?: Floor;
  target?: Target;
  /** the same figure of rein at the baseline commit (scripts/bench-baseline.ts), same run */
  baseline?: { shown: string; value?: number };
};

/** With `baseline`, the table gains the baseline's column and each row's ratio to it. */
export function reportTable(rows: readonly Row[], baseline?: string): string[] {
  if (!baseline) {
    return [
      "| figure | measured | x floor | target | met |",
      "| --- | --- | --- | --- | --- |",
      ...rows.map((r) => `| ${r.figure} | ${r.shown} | ${ratioText(r)} | ${targetText(r)} | ${metText(r)} |`),
    ];
  }
  return [
    `| figure | measured | ${baseline} | x ${baseline} | x floor | target | met |`,
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.figure} | ${r.shown} | ${r.baseline?.shown ?? ""} | ${baselineRatio(r)} | ${ratioText(r)} | ${targetText(r)} | ${metText(r)} |`),
  ];
}

function baselineRatio({ value, baseline }: Row): string {
  return value !== undefined && baseline?.value !== undefined && baseline.value > 0 ? times(value / baseline.value) : "";
}

function ratioText({ value, floor }: Row): string {
  if (value === undefined || !floor || floor.value <= 0) return "";
  return `${times(value / floor.value)} ${floor.name} (${floor.value.toFixed(1)} ${floor.unit})`;
}

function targetText({ target, floor }: Row): string {
  if (!target) return "";
  if ("ratio" in target) {
    // The bound at this run's floor, so the ratio reads in the figure's unit too.
    const today = floor ? ` (${(target.ratio * floor.value).toFixed(1)} ${floor.unit} in this run)` : "";
    return `at most ${times(target.ratio)} ${floor?.name ?? "the floor"}${today}`;
  }
  return target.text;
}

function metText({ value, floor, target }: Row): string {
  if (!target || value === undefined) return "";
  if ("ratio" in target) return floor && floor.value > 0 ? mark(value / floor.value <= target.ratio) : "";
  return mark("max" in target ? value <= target.max : value >= target.min);
}

function times(ratio: number): string {
  return ratio >= 10 ? `${ratio.toFixed(0)}x` : ratio >= 0.1 ? `${ratio.toFixed(2)}x` : `${ratio.toPrecision(2)}x`;
}

function mark(ok: boolean): string {
  return ok ? "yes" : "**no**";
}
