// tee writes each file it is given (and stdout): each is reported as a write.
import type { Pending } from "./emit.ts";
import { toRedirect } from "./redirects.ts";
import type { Walker } from "./walk.ts";

const FLAGS = /^-(?:[aip]+|-append|-ignore-interrupts|-output-error(?:=.*)?)$/;

export function teeWrites(w: Walker, pending: Pending): void {
  let options = true;
  for (const word of pending.words.slice(1)) {
    if (options && !word.dynamic && word.value === "--") {
      options = false;
      continue;
    }
    if (options && !word.dynamic && FLAGS.test(word.value)) continue;
    w.redirects.push(toRedirect("write", word, pending.place));
  }
}
