// The prompt a command or skill sends: `$ARGUMENTS` is all of the arguments, `$ARGUMENTS[N]` and
// `$N` one word of them (0-based and 1-based, as Claude Code has it); with no placeholder, the
// arguments follow after a blank line.
const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)/g;

export function expandTemplate(template: string, args: string): string {
  const all = args.trim();
  const words = all === "" ? [] : all.split(/\s+/);
  if (!/\$ARGUMENTS\b|\$\d/.test(template)) return all === "" ? template : `${template.trimEnd()}\n\n${all}`;
  return template.replace(PLACEHOLDER, (_match, zeroBased: string | undefined, oneBased: string | undefined) => {
    if (zeroBased !== undefined) return words[Number(zeroBased)] ?? "";
    if (oneBased !== undefined) return words[Number(oneBased) - 1] ?? "";
    return all;
  });
}

/** `/name rest` split; undefined when the text is no command (a path such as `/usr/bin/x` is none). */
export function slashWord(text: string): { name: string; args: string } | undefined {
  const match = /^\/([\w][\w:.-]*)(?=\s|$)/.exec(text);
  if (!match) return undefined;
  return { name: match[1]!, args: text.slice(match[0].length).trim() };
}
