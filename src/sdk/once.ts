// A value made at its first use and kept: a schema or table that only some runs need (the deferred
// team tools' input schemas, src/agents/), so a start that never reads it never builds it.

/** `make()`, made at the first call and the same value at every later one. */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
