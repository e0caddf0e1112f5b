/** Ids a fake server hands out, `prefix_1`, `prefix_2`..., counted per prefix; `reset` starts them again. */
export function idCounter(): { nextId: (prefix: string) => string; reset: () => void } {
  const counters = new Map<string, number>();
  return {
    nextId: (prefix) => {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
    reset: () => counters.clear(),
  };
}
