// The web page of `rein --serve` (GET /), with the server's token baked in so its fetches can send it.
import template from "./page.html" with { type: "text" };

// bun-types declares every *.html import as an HTMLBundle (Bun.serve's HTML routes); imported with
// type "text" it is the file's text.
const html = template as unknown as string;
const placeholder = '"__REIN_TOKEN__"';

export function pageHtml(token: string): string {
  // As JSON inside a <script> block: "<" escaped so no token can close the element early.
  const literal = JSON.stringify(token).replaceAll("<", "\\u003c");
  return html.replace(placeholder, () => literal);
}
