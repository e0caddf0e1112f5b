import { describe, expect, test } from "bun:test";
import { colorLevel } from "../../../../src/cli/term/style.ts";

describe("colorLevel", () => {
  test("without any setting, the detected level", () => {
    expect(colorLevel({}, 3)).toBe(3);
    expect(colorLevel({ TERM: "xterm-256color" }, 2)).toBe(2);
    expect(colorLevel({}, 0)).toBe(0);
  });

  test("a non-empty NO_COLOR turns colour off", () => {
    expect(colorLevel({ NO_COLOR: "1" }, 3)).toBe(0);
    expect(colorLevel({ NO_COLOR: "anything" }, 1)).toBe(0);
  });

  test("an empty NO_COLOR is ignored: the detected level", () => {
    expect(colorLevel({ NO_COLOR: "" }, 3)).toBe(3);
    expect(colorLevel({ NO_COLOR: "" }, 1)).toBe(1);
  });

  test("TERM=dumb turns colour off", () => {
    expect(colorLevel({ TERM: "dumb" }, 2)).toBe(0);
  });

  test("FORCE_COLOR beats NO_COLOR and TERM=dumb", () => {
    expect(colorLevel({ FORCE_COLOR: "1", NO_COLOR: "1" }, 3)).toBe(3);
    expect(colorLevel({ FORCE_COLOR: "1", TERM: "dumb" }, 0)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: "", NO_COLOR: "1" }, 0)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: "3", TERM: "dumb", NO_COLOR: "1" }, 0)).toBe(3);
  });

  test("FORCE_COLOR=2 or 3 sets that level whatever was detected", () => {
    expect(colorLevel({ FORCE_COLOR: "2" }, 0)).toBe(2);
    expect(colorLevel({ FORCE_COLOR: "3" }, 1)).toBe(3);
    expect(colorLevel({ FORCE_COLOR: "2" }, 3)).toBe(2);
  });

  test("FORCE_COLOR=0 or false turns colour off, even on a colour terminal", () => {
    expect(colorLevel({ FORCE_COLOR: "0" }, 3)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: "false" }, 2)).toBe(0);
  });
});
