// The arguments typed after `/mcp__SERVER__PROMPT`, mapped onto the prompt's declared arguments:
// `name=value` words set that argument, the other words fill the remaining arguments in their
// declared order, and the last of them takes whatever words are left (so a one-argument prompt
// takes a whole sentence). Double or single quotes keep spaces inside one word.
import type { PromptArgument } from "@modelcontextprotocol/sdk/types.js";

export function promptArguments(declared: readonly PromptArgument[], typed: string): Record<string, string> | { error: string } {
  const named: Record<string, string> = {};
  const positional: string[] = [];
  const names = new Set(declared.map((a) => a.name));
  for (const word of splitWords(typed)) {
    const eq = word.indexOf("=");
    const name = eq > 0 ? word.slice(0, eq) : "";
    if (names.has(name)) named[name] = word.slice(eq + 1);
    else positional.push(word);
  }
  const open = declared.filter((a) => !(a.name in named));
  open.forEach((argument, i) => {
    const words = i === open.length - 1 ? positional.splice(0) : positional.splice(0, 1);
    if (words.length) named[argument.name] = words.join(" ");
  });
  if (positional.length) return { error: `it takes ${declared.length ? `only ${usage(declared)}` : "no arguments"}, and "${positional.join(" ")}" was left over` };
  const missing = declared.filter((a) => a.required && !(a.name in named)).map((a) => a.name);
  if (missing.length) return { error: `it needs ${missing.join(" and ")} (${usage(declared)})` };
  return named;
}

/** `city [state]`: the arguments as /help shows them, optional ones in brackets. */
export function usage(declared: readonly PromptArgument[]): string {
  return declared.map((a) => (a.required ? a.name : `[${a.name}]`)).join(" ");
}

function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/([^\s"'=]+=)?(?:"([^"]*)"|'([^']*)')|(\S+)/g)) {
    const [, name, double, single, bare] = match;
    words.push(bare ?? `${name ?? ""}${double ?? single ?? ""}`);
  }
  return words;
}
