// Claude Code's dynamic context in commands and skills: each `` !`cmd` `` (at a line's start or
// after a space) and each ```` ```! ```` block is run before the prompt is sent, and its output
// takes its place. Each runs as a bash tool call would, decided by the permission engine with the
// command's `allowed-tools` granted for the run, but no person is asked: a command that would need
// an answer (or that a rule denies) is not run, and the prompt is not sent, with one line saying why.
const BLOCK = /```!\s*\n?([\s\S]*?)\n?```/g;
const INLINE = /(?<=^|\s)!`([^`\n]+)`/gm;

export type InlineIO = {
  /** undefined when the command may run, else why not (a phrase) */
  check: (command: string) => Promise<string | undefined>;
  /** its output (stdout and stderr merged), as the bash tool returns it */
  run: (command: string) => Promise<{ output: string; isError: boolean }>;
};

export function hasInlineCommands(text: string): boolean {
  return text.includes("```!") || (text.includes("!`") && new RegExp(INLINE.source, "m").test(text));
}

/** The text with each command's output in its place, or one line saying which command was not run and why. */
export async function expandInlineCommands(text: string, io: InlineIO, command: string): Promise<{ text: string } | { error: string }> {
  const found = [...text.matchAll(BLOCK)].map((m) => ({ at: m.index, length: m[0].length, line: m[1]!.trim() }));
  const blocked = (at: number) => found.some((f) => at >= f.at && at < f.at + f.length);
  for (const m of text.matchAll(INLINE)) if (!blocked(m.index)) found.push({ at: m.index, length: m[0].length, line: m[1]!.trim() });
  found.sort((a, b) => a.at - b.at);
  for (const { line } of found) {
    const refused = line ? await io.check(line) : undefined;
    if (refused) return { error: `/${command}: its shell command \`${line}\` was not run (${refused}), so the prompt was not sent; allow it in the command's allowed-tools or with --allow` };
  }
  let out = "";
  let from = 0;
  for (const { at, length, line } of found) {
    const ran = line ? await io.run(line) : { output: "", isError: false };
    out += text.slice(from, at) + ran.output.trimEnd();
    from = at + length;
  }
  return { text: out + text.slice(from) };
}
