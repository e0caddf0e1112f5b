// A config file holding only enabledPlugins (what rein plugin install writes into an empty config)
// is read without the whole file's schema (read-config-file.ts): the same value the schema gives,
// and what the hand check does not take still gets the schema's own error.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { ConfigFileSchema } from "../../../src/config/file-schema.ts";
import { readConfigFile } from "../../../src/config/read-config-file.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rein-enabled-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function read(json: unknown, kind: "user" | "project" = "user") {
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(json));
  return readConfigFile(file, kind === "user" ? { kind } : { kind, userConfig: join(dir, "user.json") });
}

test("only enabledPlugins: the value the whole file's schema gives, for the user and a project", () => {
  const json = { enabledPlugins: { "kit-01": true, "lint@market": false } };
  const schema = v.parse(ConfigFileSchema, json);
  expect(read(json)).toEqual(schema);
  expect(read(json, "project")).toEqual(schema);
  expect(read({ enabledPlugins: {} })).toEqual(v.parse(ConfigFileSchema, { enabledPlugins: {} }));
});

test("what the hand check does not take is the schema's: its errors, and the other keys beside enabledPlugins", () => {
  expect(() => read({ enabledPlugins: { kit: "yes" } })).toThrow(/enabledPlugins\.kit.*expected true or false/);
  expect(() => read({ enabledPlugins: ["kit"] })).toThrow(/enabledPlugins/);
  expect(read({ enabledPlugins: { kit: true }, maxTurns: 3 })).toEqual(v.parse(ConfigFileSchema, { enabledPlugins: { kit: true }, maxTurns: 3 }));
  expect(() => read({ enabledPlugins: { kit: true }, nope: 1 })).toThrow(/nope/);
});
