// A Markdown file with YAML front matter: the fields, and the body after them.

export type FrontMatter = { fields: Record<string, unknown>; body: string };

/** The file's fields and body, or a sentence saying why its front matter cannot be read. */
export function frontMatter(text: string): FrontMatter | string {
  const normalised = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!normalised.startsWith("---\n")) return "it has no front matter (a first line `---`, the fields, then `---`)";
  const end = normalised.indexOf("\n---", 3);
  if (end === -1) return "its front matter is not closed by a line `---`";
  const after = normalised.indexOf("\n", end + 4);
  const body = after === -1 ? "" : normalised.slice(after + 1);
  let parsed: unknown;
  try {
    parsed = Bun.YAML.parse(normalised.slice(4, end + 1));
  } catch (error) {
    return `its front matter is not valid YAML (${(error instanceof Error ? error.message : String(error)).split("\n")[0]})`;
  }
  if (parsed === null || parsed === undefined) return { fields: {}, body: body.trim() };
  if (typeof parsed !== "object" || Array.isArray(parsed)) return "its front matter is not a list of `field: value` lines";
  return { fields: parsed as Record<string, unknown>, body: body.trim() };
}
