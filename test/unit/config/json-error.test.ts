import { expect, test } from "bun:test";
import { locateJsonError } from "../../../src/config/json-error.ts";

test("valid JSON has no error", () => {
  expect(locateJsonError('{"a": [1, -2.5e3, true, null, "x\\n\\u00e9"]}')).toBeUndefined();
});

test("reports 1-based line and column of the first problem", () => {
  expect(locateJsonError('{\n  "a": 1,\n    x\n}')).toEqual({
    line: 3,
    column: 5,
    problem: 'expected a property name in double quotes, found "x"',
  });
  expect(locateJsonError('{"a": 1,}')).toEqual({ line: 1, column: 8, problem: "trailing comma" });
  expect(locateJsonError("[1 2]")).toEqual({ line: 1, column: 4, problem: 'expected "," or "]", found "2"' });
  expect(locateJsonError('{"a":')).toEqual({ line: 1, column: 6, problem: "expected a value, found end of file" });
  expect(locateJsonError('{"a": "b')).toEqual({ line: 1, column: 7, problem: "unterminated string" });
  expect(locateJsonError("{} x")).toEqual({ line: 1, column: 4, problem: 'unexpected "x" after the end of the JSON value' });
});

test("explains the usual JSON-with-comments mistakes", () => {
  expect(locateJsonError('{\n  // the model\n  "model": "x"\n}')).toEqual({
    line: 2,
    column: 3,
    problem: "comments are not allowed in JSON",
  });
  expect(locateJsonError("// the model\n{}")).toEqual({ line: 1, column: 1, problem: "comments are not allowed in JSON" });
  expect(locateJsonError("{\"a\": 'b'}")).toEqual({ line: 1, column: 7, problem: "strings must use double quotes" });
});
