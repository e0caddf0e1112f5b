// The model a session was switched to inside it (the terminal's /model), kept in the row's settings
// JSON so that resuming it (-c, -r, /resume) goes on with that model rather than the configured one.
import type { SessionRow } from "./store.ts";

const KEY = "chosen_model";

/** The row's settings JSON with `model` recorded as chosen. */
export function withChosenModel(settings: string | null | undefined, model: string): string {
  return JSON.stringify({ ...sessionSettings(settings), [KEY]: model });
}

/** The model chosen inside the session, if one was. */
export function chosenModel(row: Pick<SessionRow, "settings">): string | undefined {
  const value = sessionSettings(row.settings)[KEY];
  return typeof value === "string" && value ? value : undefined;
}

/** A session row's settings column as an object; nothing, or anything but a JSON object, is {}. */
export function sessionSettings(settings: string | null | undefined): Record<string, unknown> {
  if (!settings) return {};
  try {
    const value: unknown = JSON.parse(settings);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
