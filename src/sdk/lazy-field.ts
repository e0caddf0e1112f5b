// A field computed when first read: an installed plugin's skill bodies, command templates and agent
// prompts are read from their files when used, not at every start (plugins/index-texts.ts). A
// spread reads every lazy field of what it copies: copy such objects with `withFields`.

const lazy = new WeakSet<object>();

/** Makes `key` of `target` hold `compute()`, computed on first use (once; copies made by withFields share it). */
export function lazyField<T extends object, K extends keyof T>(target: T, key: K, compute: () => T[K]): T {
  let done = false;
  let value: T[K];
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      if (!done) {
        value = compute();
        done = true;
      }
      return value;
    },
    set(next: T[K]) {
      Object.defineProperty(this, key, { configurable: true, enumerable: true, writable: true, value: next });
    },
  });
  lazy.add(target);
  return target;
}

/** `{ ...source, ...fields }`, leaving the lazy fields of `source` unread. */
export function withFields<T extends object, F extends object>(source: T, fields: F): Omit<T, keyof F> & F {
  if (!lazy.has(source)) return { ...source, ...fields };
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(source)) as T;
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(copy, key, { configurable: true, enumerable: true, writable: true, value });
  lazy.add(copy);
  return copy as unknown as Omit<T, keyof F> & F;
}
