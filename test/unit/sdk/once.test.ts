// once (src/sdk/once.ts): the value is made at the first call, not before, and only once.
import { expect, test } from "bun:test";
import { once } from "../../../src/sdk/once.ts";

test("once makes its value at the first call and returns the same value after", () => {
  let made = 0;
  const value = once(() => ({ n: ++made }));
  expect(made).toBe(0);
  const first = value();
  expect([first, made]).toEqual([{ n: 1 }, 1]);
  expect(value()).toBe(first);
  expect(made).toBe(1);
});

test("an undefined value is made once too", () => {
  let made = 0;
  const value = once(() => {
    made++;
    return undefined;
  });
  expect([value(), value(), made]).toEqual([undefined, undefined, 1]);
});
