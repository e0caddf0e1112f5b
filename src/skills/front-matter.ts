// The front matter fields skills and commands share, as Claude Code writes them (the block itself is
// read by config/front-matter.ts).

/** `argument-hint: [file]` is a YAML list to a strict parser; it is shown as written. */
export function hint(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map(String).join(", ")}]`;
  return text(value);
}

/** Claude Code's booleans: true/false and yes/no/on/off/1/0; anything else is `fallback`. */
export function flag(value: unknown, fallback: boolean): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value !== "string") return fallback;
  const word = value.trim().toLowerCase();
  if (["true", "yes", "on", "1"].includes(word)) return true;
  if (["false", "no", "off", "0"].includes(word)) return false;
  return fallback;
}

/** A text field, trimmed; numbers become text; anything else is absent. */
export function text(value: unknown): string | undefined {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
