import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rememberTrust, trustFile, workspaceTrust } from "../../../src/config/trust.ts";

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), "rein-trust-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("a workspace is unknown until the user answers, and the answer is remembered per directory", () => {
  const data = dataDir();
  expect(workspaceTrust(data, "/repo/a")).toBe("unknown");
  rememberTrust(data, "/repo/a", true);
  rememberTrust(data, "/repo/b", false);
  expect(workspaceTrust(data, "/repo/a")).toBe("trusted");
  expect(workspaceTrust(data, "/repo/b")).toBe("distrusted");
  expect(workspaceTrust(data, "/repo")).toBe("unknown");
  rememberTrust(data, "/repo/b", true);
  expect(workspaceTrust(data, "/repo/b")).toBe("trusted");
  expect(statSync(trustFile(data)).mode & 0o777).toBe(0o600);
});

test("an unreadable trust file trusts nothing", () => {
  const data = dataDir();
  writeFileSync(trustFile(data), "{ not json");
  expect(workspaceTrust(data, "/repo/a")).toBe("unknown");
  writeFileSync(trustFile(data), JSON.stringify({ trusted: "/repo/a" }));
  expect(workspaceTrust(data, "/repo/a")).toBe("unknown");
});
