// Every corpus line is caught: the hidden command found by name, the write reported, or the line
// marked opaque or an error, so no pattern rule can allow it.
import { describe, expect, test } from "bun:test";
import { analyzeShell } from "../../../../src/permission/shell/analyze.ts";
import { CORPUS, CORPUS_CWD, CORPUS_HOME, isCaught, matchesExactly } from "./corpus.ts";

describe("adversarial corpus", () => {
  test("holds at least 200 lines, each once", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(CORPUS.map((e) => e.line)).size).toBe(CORPUS.length);
  });

  for (const entry of CORPUS) {
    test(`${JSON.stringify(entry.expect)} ${JSON.stringify(entry.line)}`, async () => {
      const result = await analyzeShell(entry.line, CORPUS_CWD, CORPUS_HOME);
      expect({ caught: isCaught(result, entry.expect), exactly: matchesExactly(result, entry.expect), result }).toMatchObject({ caught: true, exactly: true });
    });
  }
});
