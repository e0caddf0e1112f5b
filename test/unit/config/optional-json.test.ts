// The one reader of an optional JSON file (config/optional-json.ts), on real files: a missing file
// is nothing, a bad one is one problem naming what is wrong, turned into one warning naming the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { optionalJsonObject, parseJson, readOptionalJson, readOptionalText } from "../../../src/config/optional-json.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
const at = (name: string) => join(dir.path, name);
beforeAll(() => {
  dir = tempDir("rein-optional-json-");
  writeFileSync(at("good.json"), '\uFEFF{ "a": 1 }');
  writeFileSync(at("broken.json"), '{ "a": 1,');
  writeFileSync(at("list.json"), "[1, 2]");
  writeFileSync(at("commented.jsonc"), '// a comment\n{ "a": "x // not a comment", /* b */ "b": [1,], }');
  writeFileSync(at("a-file"), "");
  mkdirSync(at("folder.json"));
  Bun.spawnSync(["mkfifo", at("fifo.json")]);
});
afterAll(() => dir.remove());

describe("readOptionalJson", () => {
  test("a missing file, or one under a file, is nothing; named as required, it is a problem", () => {
    expect(readOptionalJson(at("none.json"))).toBeUndefined();
    expect(readOptionalJson(at("a-file/config.json"))).toBeUndefined();
    expect(readOptionalJson(at("none.json"), { required: true })).toMatchObject({ kind: "unreadable", problem: "cannot read it (ENOENT)" });
  });

  test("an object is read, a leading BOM dropped", () => {
    expect(readOptionalJson(at("good.json"))).toEqual({ json: { a: 1 } });
  });

  test("broken JSON, JSON that is not an object, a folder and a FIFO are each one problem of its kind", () => {
    const broken = readOptionalJson(at("broken.json"));
    expect(broken).toMatchObject({ kind: "invalid" });
    expect((broken as { problem: string }).problem).toStartWith("not valid JSON (");
    expect(readOptionalJson(at("list.json"))).toEqual({ problem: "not a JSON object", kind: "not-object" });
    expect(readOptionalJson(at("folder.json"))).toMatchObject({ kind: "unreadable", problem: "it is a folder, not a regular file" });
    // a FIFO is refused without opening it for a read that would block
    expect(readOptionalJson(at("fifo.json"))).toMatchObject({ kind: "unreadable", problem: "it is a named pipe (FIFO), not a regular file" });
  });

  test("JSONC: comments and trailing commas are allowed outside strings, and only with jsonc", () => {
    expect(readOptionalJson(at("commented.jsonc"), { jsonc: true })).toEqual({ json: { a: "x // not a comment", b: [1] } });
    expect(readOptionalJson(at("commented.jsonc"))).toMatchObject({ kind: "invalid" });
    const broken = readOptionalJson(at("broken.json"), { jsonc: true });
    expect(broken).toMatchObject({ kind: "invalid" });
    expect((broken as { problem: string }).problem).toStartWith("not valid JSON(C) (");
  });
});

describe("optionalJsonObject", () => {
  test("a bad file is exactly one warning: the file, what is wrong, what was not loaded", () => {
    const warnings: string[] = [];
    expect(optionalJsonObject(at("list.json"), warnings, "its settings were not loaded")).toBeUndefined();
    expect(warnings).toEqual([`${at("list.json")}: not a JSON object; its settings were not loaded`]);
  });

  test("a missing file and a good one add no warning", () => {
    const warnings: string[] = [];
    expect(optionalJsonObject(at("none.json"), warnings, "x")).toBeUndefined();
    expect(optionalJsonObject(at("good.json"), warnings, "x")).toEqual({ a: 1 });
    expect(warnings).toEqual([]);
  });
});

test("readOptionalText and parseJson: the text, and any JSON value (a schema judges it after)", () => {
  expect(readOptionalText(at("none.json"))).toBeUndefined();
  expect(readOptionalText(at("list.json"))).toEqual({ text: "[1, 2]" });
  expect(parseJson("[1, 2]")).toEqual({ value: [1, 2] });
  expect(parseJson('"text"')).toEqual({ value: "text" });
  expect(parseJson("{")).toMatchObject({ kind: "invalid" });
});
