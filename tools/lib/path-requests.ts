// The permission requests for a tool that touches a path: the path itself under `read` or `edit`,
// and `external_directory` when it lies outside the workspace. The permission engine (a later
// issue) adds symlink resolution and sensitive paths; tools only say what they touch.
import { isAbsolute, relative, resolve } from "node:path";
import type { PermissionRequest } from "rein/tool";

export function resolvePath(path: string, cwd: string): string {
  const home = process.env.HOME ?? "";
  const expanded = path === "~" ? home : path.startsWith("~/") ? `${home}${path.slice(1)}` : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export function pathRequests(permission: "read" | "edit", path: string, cwd: string): PermissionRequest[] {
  const absolute = resolvePath(path, cwd);
  const requests: PermissionRequest[] = [{ permission, pattern: absolute, always: [absolute] }];
  if (!isInside(absolute, cwd)) {
    const dir = resolve(absolute, "..");
    requests.push({ permission: "external_directory", pattern: absolute, always: [`${dir}/*`] });
  }
  return requests;
}
