import { describe, expect, test } from "bun:test";
import { hasControl, printable } from "../../../src/cli/printable.ts";

describe("printable", () => {
  test("drops C0 controls, DEL and C1 controls (U+009B is a one-character CSI), keeps the rest", () => {
    expect(printable("a\x1b[2Jb\x9b2Jc\x7fd\x85e\x00f\u00a0g é")).toBe("a[2Jb2Jcdef\u00a0g é");
    expect(printable("tab\there\nnext")).toBe("tabherenext");
  });

  test("what a site keeps: tabs as given, newlines, a replacement for the others", () => {
    expect(printable("a\tb\x1bc\x9bd\ne", { tab: "  ", newlines: true, replacement: "?" })).toBe("a  b?c?d\ne");
    expect(printable("a\tb\x1b", { tab: "    " })).toBe("a    b");
  });

  test("text without control characters is returned as it is", () => {
    const text = "plain text, ünïcode, 日本";
    expect(printable(text, { replacement: "?" })).toBe(text);
    expect(hasControl(text)).toBe(false);
    expect(hasControl("x\x9b")).toBe(true);
  });
});
