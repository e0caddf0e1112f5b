// Short, time-ordered, unguessable ids: prefix, milliseconds in base 36, then 8 random characters.
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

export function newId(prefix: string, now = Date.now()): string {
  const random = crypto.getRandomValues(new Uint8Array(8));
  let tail = "";
  for (const byte of random) tail += ALPHABET[byte % 36];
  return `${prefix}_${now.toString(36)}${tail}`;
}
