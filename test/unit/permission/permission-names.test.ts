// How a rule's permission name is checked: a known one passes; a built-in tool checked under
// another permission, or a near miss of a known name, is an error naming what to write; a tool
// that asks for nothing is a warning; anything else may be a tool loaded later (a warning only
// when no loaded tool has the name).
import { expect, test } from "bun:test";
import { checkPermissionName, foreignPermissionWarnings } from "../../../src/permission/known-permissions.ts";

const KNOWN = "known permissions: bash, read, edit, external_directory, webfetch, websearch";

test("rein's own permissions and wildcards pass", () => {
  for (const name of ["bash", "read", "edit", "external_directory", "webfetch", "websearch", "*", "mcp__*", "bash*"]) expect(checkPermissionName(name)).toBeUndefined();
});

test("a built-in tool checked under another permission is an error saying which to write", () => {
  expect(checkPermissionName("write")).toEqual({ error: `the write tool is checked as edit, so a rule for "write" matches nothing: write edit instead (${KNOWN})` });
  for (const [tool, as] of [["glob", "read"], ["grep", "read"], ["list", "read"], ["lsp", "read"]]) {
    expect(checkPermissionName(tool!)).toEqual({ error: `the ${tool} tool is checked as ${as}, so a rule for "${tool}" matches nothing: write ${as} instead (${KNOWN})` });
  }
});

test("a tool that asks for no permission is a warning that the rule has no effect", () => {
  expect(checkPermissionName("todo")).toEqual({ warning: 'the todo tool asks for no permission, so a rule for "todo" has no effect' });
  expect(checkPermissionName("history")).toEqual({ warning: 'the history tool asks for no permission, so a rule for "history" has no effect' });
});

test("case slips, swapped letters and one missing letter are errors with the name meant", () => {
  const meant = (name: string) => {
    const check = checkPermissionName(name);
    return check && "error" in check ? /did you mean "([^"]+)"/.exec(check.error)?.[1] : undefined;
  };
  expect(meant("Bash")).toBe("bash");
  expect(meant("BASH")).toBe("bash");
  expect(meant("bsah")).toBe("bash");
  expect(meant("raed")).toBe("read");
  expect(meant("edti")).toBe("edit");
  expect(meant("webfech")).toBe("webfetch");
  expect(meant("websaerch")).toBe("websearch");
  expect(meant("external-directory")).toBe("external_directory");
  // a near miss of a tool checked as another permission means that permission
  expect(meant("Write")).toBe("edit");
  expect(meant("wirte")).toBe("edit");
  expect(checkPermissionName("bsah")).toEqual({ error: `unknown permission "bsah" (did you mean "bash"? ${KNOWN})` });
});

test("short names get one edit of slack, longer ones two; further names are foreign (a tool that may load later)", () => {
  // "ed" is two edits from "edit": too far for a short word
  expect(checkPermissionName("ed")).toEqual({ foreign: true });
  // "webftch" and "wbfetch" are one and "wbftch" two edits from "webfetch"
  expect(checkPermissionName("wbftch")).toMatchObject({ error: expect.stringContaining('did you mean "webfetch"') });
  for (const name of ["deploy", "mcp__github", "mcp__github__create_issue", "apply_patch", "notebook"]) expect(checkPermissionName(name)).toEqual({ foreign: true });
});

test("foreign names warn only when no loaded tool has them, once per name and place", () => {
  const foreign = [
    { permission: "deploy", where: "/p/.rein/config.json" },
    { permission: "deploy", where: "/p/.rein/config.json" },
    { permission: "deploy", where: "--allow" },
    { permission: "mcp__github", where: "--deny" },
  ];
  const warnings = foreignPermissionWarnings(foreign, ["mcp__github", "bash"]);
  expect(warnings).toEqual([
    '/p/.rein/config.json: "deploy" is none of rein\'s permissions (bash, read, edit, external_directory, webfetch, websearch) and no loaded tool has that name: the rule applies only once a user, project or MCP tool of that name loads',
    '--allow: "deploy" is none of rein\'s permissions (bash, read, edit, external_directory, webfetch, websearch) and no loaded tool has that name: the rule applies only once a user, project or MCP tool of that name loads',
  ]);
  expect(foreignPermissionWarnings(foreign, ["deploy", "mcp__github"])).toEqual([]);
  expect(foreignPermissionWarnings([], [])).toEqual([]);
});
