// A tool call's streamed arguments read as servers really send them: empty means {}, an object
// sent as an object is taken, a JSON wrapped in a code fence or with trailing commas is repaired,
// and two objects run together (`{..}{..}`: Ollama sent parallel calls on one index) are split
// into the calls they were. An input cut short is never completed by guessing: it stays an error.
export type ParsedArguments = { inputs: unknown[] } | { error: string };

export function parseArguments(raw: unknown): ParsedArguments {
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) return { inputs: [raw] };
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text === "") return { inputs: [{}] };
  const whole = tryObject(text);
  if (whole !== undefined) return { inputs: [whole] };
  const unfenced = text.replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  const repaired = unfenced.replace(/,\s*([}\]])/g, "$1");
  const fixed = tryObject(repaired);
  if (fixed !== undefined) return { inputs: [fixed] };
  const parts = splitObjects(repaired);
  if (parts && parts.length > 1) {
    const inputs = parts.map(tryObject);
    if (inputs.every((input) => input !== undefined)) return { inputs };
  }
  return { error: `not valid JSON: ${text.length > 80 ? `${text.slice(0, 77)}...` : text}` };
}

function tryObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    // Some servers double-encode: the arguments are a JSON string holding the object.
    if (typeof value === "string") return tryObject(value);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Top-level objects written one after the other, found by bracket depth outside strings. */
function splitObjects(text: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}") {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) parts.push(text.slice(start, i + 1));
    } else if (depth === 0 && !/\s/.test(c!)) return undefined;
  }
  return depth === 0 ? parts : undefined;
}
