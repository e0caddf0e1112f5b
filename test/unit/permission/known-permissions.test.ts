// The list of permission names that rules are checked against is what rein's tools really ask for.
import { expect, test } from "bun:test";
import { BUILTIN_PERMISSIONS, checkPermissionName } from "../../../src/permission/known-permissions.ts";
import { BUILTIN_MODULES } from "../../../src/registry/builtin-modules.ts";

const SAMPLE: Record<string, unknown> = { command: "ls", path: "x", url: "https://example.com/", pattern: "*", content: "", old_string: "a", new_string: "b" };

test("every permission a built-in tool asks for is a known one, and every built-in tool's own name is checked", () => {
  const asked = new Set<string>();
  for (const tool of BUILTIN_MODULES) {
    for (const request of tool.permissions?.(SAMPLE, { cwd: "/tmp" }) ?? [{ permission: tool.name }]) asked.add(request.permission);
    // a rule naming the tool itself is either one of the known permissions or explained
    const check = checkPermissionName(tool.name);
    expect(check === undefined || "error" in check || ("warning" in check && check.warning.includes("asks for no permission"))).toBe(true);
  }
  for (const permission of asked) expect(BUILTIN_PERMISSIONS).toContain(permission);
  expect([...asked].sort()).toEqual(["bash", "edit", "read", "webfetch"]);
});
