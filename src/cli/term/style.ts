// Whether and how much to colour. chalk 6 ignores NO_COLOR and TERM=dumb, so rein decides:
// FORCE_COLOR wins (0 turns colour off), then TERM=dumb and a non-empty NO_COLOR turn it off,
// else what chalk detected for the terminal.
export type Level = 0 | 1 | 2 | 3;

export function colorLevel(env: Record<string, string | undefined>, detected: Level): Level {
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === "0" || force === "false") return 0;
    if (force === "2" || force === "3") return Number(force) as Level;
    return detected > 0 ? detected : 1;
  }
  if (env.TERM === "dumb") return 0;
  if (env.NO_COLOR) return 0;
  return detected;
}
