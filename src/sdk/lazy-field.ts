// A field computed when first read: an installed plugin's skill bodies, command templates and agent
// prompts are read from their files when used, not at every start (plugins/index-texts.ts). A
// spread reads every lazy field of what it copies: copy such objects with `withFields`.

/** the lazy fields of each object that has any (copies made by withFields included) */
const lazy = new WeakMap<object, PropertyKey[]>();

/** A lazy field to make: the object, the key, what computes the value. */
export type LazyFieldSpec = readonly [target: object, key: PropertyKey, compute: () => unknown];

/** lazyField for each of `fields`, in one call (a start makes a few hundred: see plugins/index-texts.ts). */
export function lazyFields(fields: readonly LazyFieldSpec[]): void {
  for (const [target, key, compute] of fields) {
    let done = false;
    let value: unknown;
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
      set(next: unknown) {
        Object.defineProperty(this, key, { configurable: true, enumerable: true, writable: true, value: next });
      },
    });
    const keys = lazy.get(target);
    if (keys) keys.push(key);
    else lazy.set(target, [key]);
  }
}

/** Makes `key` of `target` hold `compute()`, computed on first use (once; copies made by withFields share it). */
export function lazyField<T extends object, K extends keyof T>(target: T, key: K, compute: () => T[K]): T {
  lazyFields([[target, key, compute]]);
  return target;
}

/**
 * `{ ...source, ...fields }`, leaving the lazy fields of `source` unread: the other fields are
 * copied as a spread copies them, in their order, and each lazy one shares its getter.
 */
export function withFields<T extends object, F extends object>(source: T, fields: F): Omit<T, keyof F> & F {
  const keys = lazy.get(source);
  if (!keys) return { ...source, ...fields };
  const copy: Record<PropertyKey, unknown> = {};
  for (const key of Object.keys(source)) {
    if (keys.includes(key)) Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(source, key)!);
    else if (key === "__proto__") Object.defineProperty(copy, key, { configurable: true, enumerable: true, writable: true, value: (source as Record<PropertyKey, unknown>)[key] });
    else copy[key] = (source as Record<PropertyKey, unknown>)[key];
  }
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(copy, key, { configurable: true, enumerable: true, writable: true, value });
  // a loop, not filter: withFields runs once per plugin command at a start (filter's calls add up past JavaScriptCore's optimizing threshold)
  const kept: PropertyKey[] = [];
  for (const key of keys) if (!(key in fields)) kept.push(key);
  lazy.set(copy, kept);
  return copy as unknown as Omit<T, keyof F> & F;
}
