// A long text cut to its head and end (compaction's transcript, the title call's request): its own
// module so that what needs only this does not load compaction.

/** The head and the end of a text, with a note of what was left out between them. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - 60);
  const head = text.slice(0, Math.floor(keep * 0.6));
  const end = text.slice(text.length - Math.floor(keep * 0.4));
  return `${head}\n[... ${text.length - head.length - end.length} characters cut ...]\n${end}`;
}
