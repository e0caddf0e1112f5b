// The `...` substitutions in text tree-sitter-bash left unparsed (here-doc bodies, `${x:-`cmd`}`) or
// parsed without bash's unescaping (\` inside `...`).

/** The code of each `...` in the text, unescaped as bash does (\` \$ \\); a lone \` is a literal backquote. */
export function backquoted(text: string): string[] {
  const found: string[] = [];
  let current: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[++i] ?? "";
      if (current !== undefined) current += "$`\\".includes(next) && next ? next : c + next;
      continue;
    }
    if (c === "`") {
      if (current === undefined) current = "";
      else {
        found.push(current);
        current = undefined;
      }
    } else if (current !== undefined) current += c;
  }
  if (current !== undefined) found.push(current); // bash runs an unterminated one to the end
  return found;
}
