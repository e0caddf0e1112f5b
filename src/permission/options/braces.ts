// Brace expansion as bash does it before anything else: `src/{a,b}.ts` is the two words
// `src/a.ts src/b.ts`, `f{1..3}` is f1 f2 f3, nested lists expand inside out. Only a word written
// plainly (no quotes, escapes or expansions) is expanded here; anything else stays unknown.
const PLAIN = /^[^'"\\$`]*$/;
const MAX_WORDS = 256;

/** The words a plain brace word becomes, or undefined when it is not one or makes too many. */
export function expandBraces(word: string): string[] | undefined {
  if (!PLAIN.test(word) || !word.includes("{")) return undefined;
  const words = expand(word);
  return words !== undefined && words.length <= MAX_WORDS && (words.length > 1 || words[0] !== word) ? words : undefined;
}

function expand(word: string): string[] | undefined {
  const group = firstGroup(word);
  if (!group) return [word];
  const { start, end, parts } = group;
  const out: string[] = [];
  for (const part of parts) {
    for (const tail of expand(word.slice(end + 1)) ?? []) {
      for (const middle of expand(part) ?? []) out.push(word.slice(0, start) + middle + tail);
      if (out.length > MAX_WORDS) return undefined;
    }
  }
  return out;
}

/** The first `{...}` that bash expands: a comma list at its top level, or a sequence `{a..b[..step]}`. */
function firstGroup(word: string): { start: number; end: number; parts: string[] } | undefined {
  for (let start = word.indexOf("{"); start >= 0; start = word.indexOf("{", start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < word.length; i++) {
      const c = word[i];
      if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        const body = word.slice(start + 1, i);
        if (commas.length > 0) {
          const cuts = [start, ...commas, i];
          return { start, end: i, parts: cuts.slice(0, -1).map((at, k) => word.slice(at + 1, cuts[k + 1])) };
        }
        const sequence = sequenceOf(body);
        if (sequence) return { start, end: i, parts: sequence };
        break;
      } else if (c === "," && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

function sequenceOf(body: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  if (numbers) {
    const [from, to] = [Number(numbers[1]), Number(numbers[2])];
    const step = Math.abs(Number(numbers[3] ?? 1)) || 1;
    if (Math.abs(to - from) / step > MAX_WORDS) return undefined;
    const out: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) out.push(String(n));
    return out;
  }
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  if (!letters) return undefined;
  const [a, b] = [letters[1]!.charCodeAt(0), letters[2]!.charCodeAt(0)];
  const out: string[] = [];
  for (let c = a; a <= b ? c <= b : c >= b; c += a <= b ? 1 : -1) out.push(String.fromCharCode(c));
  return out;
}
