// Turns an HTML page into text a model can read: headings as `#` lines, list items as `- `, links
// as `text (url)`, blocks separated by blank lines, whitespace collapsed (kept inside <pre>).
// Scripts, styles, navigation and <head> are dropped. A tolerant scan, not a parser: broken markup
// degrades to slightly worse text, never to an error.
import { decodeEntities } from "./html-entities.ts";

// Elements whose whole content is dropped.
const DROPPED = new Set(["script", "style", "head", "title", "nav", "noscript", "template", "svg", "iframe", "object"]);
// Raw-text elements: their content may hold `<` that is not a tag, so they end only at their close tag.
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp"]);
// Blocks that stand apart as paragraphs (a blank line around them) or as lines (one line break).
const PARAGRAPH = new Set([
  "p", "blockquote", "table", "figure", "section", "article", "header", "footer", "main", "aside",
  "details", "form", "dl", "hr", "address", "fieldset",
]);
const LINE = new Set(["div", "br", "tr", "dt", "dd", "summary", "figcaption", "caption", "legend", "option"]);
const CELL = new Set(["td", "th"]);

// Nothing but a comment or a quoted value runs past a `<`, so a stray `<a` with no `>` costs one
// short look, not a scan to the end of the page for every such `<`.
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^<>]*>|<\?[^<>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^<>"']|"[^"]*"|'[^']*')*)>/g;
const HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

export function htmlToText(html: string, baseUrl?: string): string {
  const out = new TextOut();
  const links: Link[] = [];
  const unclosed = new Set<string>(); // elements with no close tag further on: never search again
  let listDepth = 0;
  let preDepth = 0;
  let at = 0;
  html = html.replace(/\r\n?/g, "\n");
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(html); match; match = TOKEN.exec(html)) {
    if (match.index > at) out.text(html.slice(at, match.index), preDepth > 0);
    at = TOKEN.lastIndex;
    const [, slash, rawName, attrs = ""] = match;
    if (!rawName) continue; // comment, doctype, processing instruction
    const name = rawName.toLowerCase();
    const closing = slash === "/";
    if (!closing && (DROPPED.has(name) || RAW_TEXT.has(name)) && !attrs.trimEnd().endsWith("/")) {
      const end = skipElement(html, name, at, unclosed);
      if (DROPPED.has(name)) {
        at = TOKEN.lastIndex = end;
        continue;
      }
      // textarea, xmp: their content is text, shown as written
      out.text(html.slice(at, contentEnd(html, name, at, end)), false);
      at = TOKEN.lastIndex = end;
      continue;
    }
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      out.block(2, closing);
      if (!closing) out.prefix(`${"#".repeat(Number(heading[1]))} `);
    } else if (name === "ul" || name === "ol") {
      listDepth = Math.max(0, listDepth + (closing ? -1 : 1));
      out.block(listDepth === 0 ? 2 : 1, closing);
    } else if (name === "li") {
      out.block(1, closing);
      if (!closing) out.prefix(`${"  ".repeat(Math.max(0, listDepth - 1))}- `);
    } else if (name === "pre") {
      preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
      out.block(2, closing);
    } else if (name === "a") {
      if (!closing) links.push({ href: linkTarget(attrs, baseUrl), mark: out.mark() });
      else closeLink(out, links.pop());
    } else if (PARAGRAPH.has(name)) {
      out.block(listDepth > 0 ? 1 : 2, closing); // paragraphs inside a list item keep the list tight
    } else if (LINE.has(name)) {
      out.block(1, closing);
    } else if (CELL.has(name) && closing) {
      out.text(" ", false);
    }
  }
  if (at < html.length) out.text(html.slice(at), preDepth > 0);
  return out.toString();
}

type Link = { href: string | undefined; mark: number };

/** Accumulates output. Line breaks and a line's prefix (`## `, `- `) wait for the next text, so
 * empty blocks leave nothing; a closing tag drops a prefix that got no text (an empty item). */
class TextOut {
  private parts: string[] = [];
  private pendingBreaks = 0;
  private pendingPrefix = "";
  private atLineStart = true;
  private endsWithSpace = false;

  block(newlines: number, closing: boolean): void {
    this.pendingBreaks = Math.max(this.pendingBreaks, newlines);
    if (closing) this.pendingPrefix = "";
  }

  prefix(text: string): void {
    this.pendingPrefix = text;
  }

  text(raw: string, preformatted: boolean): void {
    let text = preformatted ? raw : raw.replace(/\s+/g, " ");
    if (this.atLineStart || this.pendingBreaks > 0) text = preformatted ? text.replace(/^\n/, "") : text.trimStart();
    else if (this.endsWithSpace && !preformatted) text = text.trimStart();
    if (!text) return;
    if (this.pendingBreaks > 0 && this.parts.length > 0) {
      this.trimTrailingSpace();
      this.push("\n".repeat(this.pendingBreaks));
    }
    this.pendingBreaks = 0;
    this.push(this.pendingPrefix);
    this.pendingPrefix = "";
    this.push(decodeEntities(text));
    this.atLineStart = text.endsWith("\n");
    this.endsWithSpace = text.endsWith(" ");
  }

  /** Appends inline text right where the output stands (a link's URL after its text). */
  append(text: string): void {
    this.push(text);
    this.atLineStart = false;
    this.endsWithSpace = false;
  }

  /** A position to read back the text written after it (a link's label). */
  mark(): number {
    return this.parts.length;
  }

  since(mark: number): string {
    return this.parts.slice(mark).join("");
  }

  toString(): string {
    return this.parts
      .join("")
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }

  private push(text: string): void {
    if (text) this.parts.push(text);
  }

  private trimTrailingSpace(): void {
    const last = this.parts.length - 1;
    if (last >= 0) this.parts[last] = this.parts[last]!.trimEnd();
  }
}

function closeLink(out: TextOut, link: Link | undefined): void {
  if (!link?.href) return;
  const label = out.since(link.mark).trim();
  if (!label || label === link.href) return;
  out.append(` (${link.href})`);
}

function linkTarget(attrs: string, baseUrl: string | undefined): string | undefined {
  const match = HREF.exec(attrs);
  const raw = decodeEntities((match?.[1] ?? match?.[2] ?? match?.[3] ?? "").trim());
  if (!raw || raw.startsWith("#") || /^javascript:/i.test(raw)) return undefined;
  try {
    return new URL(raw, baseUrl).href;
  } catch {
    return raw;
  }
}

/** Where the element opened just before `from` ends (after its close tag); for <head> whose close
 * tag was left out, where <body> starts; when no end is found a raw-text element runs to the end
 * of the page and any other element is not skipped at all. */
function skipElement(html: string, name: string, from: number, unclosed: Set<string>): number {
  const close = new RegExp(`</${name}\\s*>`, "ig");
  close.lastIndex = from;
  if (!unclosed.has(name) && close.exec(html)) return close.lastIndex;
  unclosed.add(name);
  if (name === "head" && !unclosed.has("body")) {
    const body = html.slice(from).search(/<body[\s>]/i);
    if (body >= 0) return from + body;
    unclosed.add("body");
  }
  return RAW_TEXT.has(name) ? html.length : from;
}

function contentEnd(html: string, name: string, from: number, end: number): number {
  const close = html.slice(from, end).search(new RegExp(`</${name}\\s*>`, "i"));
  return close < 0 ? end : from + close;
}
