// The web page of `rein --serve` (GET /): one static file; it holds no token (the login cookie
// lets its fetches and its EventSource in).
import template from "./page.html" with { type: "text" };

// bun-types declares every *.html import as an HTMLBundle (Bun.serve's HTML routes); imported with
// type "text" it is the file's text.
export const PAGE_HTML = template as unknown as string;
