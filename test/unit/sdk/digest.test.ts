// src/sdk/digest.ts gives the same digests node:crypto gives (memory folders and checkpoint names
// are named by them, so a change would lose what earlier runs stored) and fresh random hex.
import { createHash } from "node:crypto";
import { expect, test } from "bun:test";
import { digestHex, hasher, randomHex } from "../../../src/sdk/digest.ts";

test("digestHex matches node:crypto's hex digest for text and bytes", () => {
  for (const text of ["", "/home/me/project", "ünïcode ✓ 𝄞", "x".repeat(100_000)]) {
    expect(digestHex("sha1", text)).toBe(createHash("sha1").update(text).digest("hex"));
    expect(digestHex("sha256", text)).toBe(createHash("sha256").update(text).digest("hex"));
  }
  const bytes = new Uint8Array([0, 1, 2, 255, 254]);
  expect(digestHex("sha256", bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
});

test("a hasher fed in pieces digests the whole", () => {
  const h = hasher("sha256");
  for (const piece of ["ab", "", "c", "dé"]) h.update(piece);
  expect(h.digest("hex")).toBe(createHash("sha256").update("abcdé").digest("hex"));
});

test("randomHex gives two hex digits a byte, and different values", () => {
  const seen = new Set(Array.from({ length: 50 }, () => randomHex(8)));
  expect(seen.size).toBe(50);
  for (const value of seen) expect(value).toMatch(/^[0-9a-f]{16}$/);
  expect(randomHex(1)).toMatch(/^[0-9a-f]{2}$/);
});
