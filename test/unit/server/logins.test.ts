// The server's logins: the token compared whole, browser logins that are random values (never the
// token), each usable until revoked, and at most 64 held (the oldest goes first), so a cookie
// carried off from another port of the host does not stay worth the token for ever.
import { expect, test } from "bun:test";
import { Logins } from "../../../src/server/auth.ts";

const TOKEN = "a-test-token-of-exactly-32-chars";

test("the token matches only itself: not a prefix, not a longer string, not another of the same length", () => {
  const logins = new Logins(TOKEN);
  expect(logins.tokenMatches(TOKEN)).toBe(true);
  expect(logins.tokenMatches(TOKEN.slice(0, -1))).toBe(false);
  expect(logins.tokenMatches(`${TOKEN}x`)).toBe(false);
  expect(logins.tokenMatches("b".repeat(TOKEN.length))).toBe(false);
  expect(logins.tokenMatches("")).toBe(false);
});

test("a login is a fresh random value, not the token, held until revoked", () => {
  const logins = new Logins(TOKEN);
  const a = logins.issue();
  const b = logins.issue();
  expect(a).not.toBe(b);
  expect(a).not.toContain(TOKEN);
  expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(logins.holds(a)).toBe(true);
  expect(logins.holds(b)).toBe(true);
  // the token itself is not a login
  expect(logins.holds(TOKEN)).toBe(false);
  logins.revoke(a);
  expect(logins.holds(a)).toBe(false);
  expect(logins.holds(b)).toBe(true);
  // revoking what is not held changes nothing
  logins.revoke("never-issued");
  expect(logins.holds(b)).toBe(true);
});

test("at most 64 logins are held: the 65th pushes the oldest out", () => {
  const logins = new Logins(TOKEN);
  const issued = Array.from({ length: 65 }, () => logins.issue());
  expect(logins.holds(issued[0]!)).toBe(false);
  expect(issued.slice(1).every((value) => logins.holds(value))).toBe(true);
});

test("logins of one server are not another's", () => {
  const one = new Logins(TOKEN);
  const other = new Logins(TOKEN);
  expect(other.holds(one.issue())).toBe(false);
});
