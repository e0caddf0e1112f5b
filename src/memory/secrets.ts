// What looks like a secret in a memory's text: a private key, a well-known token format, a URL
// with a password, or `NAME=value` / `name: value` where rein would keep NAME out of a child's
// environment (permission/child-env.ts decides that, so the two agree).
import { looksSecret } from "../permission/child-env.ts";

const TOKEN = /-----BEGIN [A-Z ]*PRIVATE KEY|\b(?:sk-ant-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,})/;
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;
const ASSIGNMENT = /\b([A-Za-z_][A-Za-z0-9_.-]*)\s*[:=]\s*["']?([^\s"']{6,})/g;
const WORDED = /\b(?:password|passwd|passphrase|api[ _-]?key|secret|token)\s+(?:is|was)\s+["']?(\S{6,})/i;

/** What in `text` looks like a secret (a sentence for the error), or undefined. */
export function secretIn(text: string): string | undefined {
  if (TOKEN.test(text)) return "a private key or an access token";
  if (URL_PASSWORD.test(text)) return "a URL with a password in it";
  for (const [, name, value] of text.matchAll(ASSIGNMENT)) {
    if (looksSecret(name!.toUpperCase().replace(/[.-]/g, "_"), value!) && !placeholder(value!)) return `a value for ${name}`;
  }
  const worded = WORDED.exec(text);
  if (worded && !placeholder(worded[1]!)) return "a password or key written out";
  return undefined;
}

/** `$TOKEN`, `<your-key>`, `${API_KEY}`, `xxxx`: a reference to a secret, not one. */
function placeholder(value: string): boolean {
  return /^[$<{%]|^x+$|^\*+$|^(?:redacted|changeme|example|none|null|undefined|true|false)$/i.test(value);
}
