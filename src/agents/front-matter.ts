// An agent file's front matter (read as every Markdown file's is, leniently: config/front-matter.ts),
// which an agent cannot do without: the fields, and the body after them as the prompt.
import { readFrontMatter } from "../config/front-matter.ts";

export type FrontMatter = { fields: Record<string, unknown>; body: string; lenient?: string };

/** The file's fields and body, or a sentence saying why its front matter cannot be read. */
export function frontMatter(text: string, keys?: readonly string[], optional = false): FrontMatter | string {
  const read = readFrontMatter(text, keys ? { keys } : {});
  if ("error" in read) return read.error;
  // OpenCode loads an agent file that is all prompt.
  if (!read.present && optional) return { fields: {}, body: text.trim() };
  if (!read.present) return "it has no front matter (a first line `---`, the fields, then `---`)";
  return { fields: read.data, body: read.body.trim(), ...(read.lenient ? { lenient: read.lenient } : {}) };
}
