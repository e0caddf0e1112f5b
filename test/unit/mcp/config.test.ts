import { expect, test } from "bun:test";
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEntry } from "../../../src/mcp/config.ts";
import { expandText } from "../../../src/mcp/expand.ts";
import { serverConfigs } from "../../../src/mcp/sources.ts";
import { loadConfig } from "../../../src/config/load.ts";

test("a stdio entry and an http entry parse; type defaults to stdio", () => {
  expect(parseEntry({ command: "node", args: ["s.js"], env: { A: "1" } }, {})).toEqual({ command: "node", args: ["s.js"], env: { A: "1" } });
  expect(parseEntry({ type: "http", url: "http://127.0.0.1:9/mcp", headers: { X: "y" } }, {})).toMatchObject({ type: "http", url: "http://127.0.0.1:9/mcp" });
});

test("a url without a type, an unknown transport and a bad field are one-line problems", () => {
  expect(parseEntry({ url: "http://x/mcp" }, {})).toEqual({ problem: 'the entry has a url but no type: add "type": "http" (or "sse" for an old server)' });
  expect(parseEntry({ type: "ws", url: "ws://x" }, {})).toEqual({ problem: 'unknown transport "ws": rein speaks stdio, http, streamable-http, sse' });
  expect(parseEntry({ command: "x", args: "a b" }, {})).toEqual({ problem: "args: expected args to be a list of strings" });
  expect(parseEntry({ type: "http", url: "file:///etc" }, {})).toEqual({ problem: 'url: expected an http(s) URL, got "file:///etc"' });
  expect(parseEntry(["x"], {})).toHaveProperty("problem");
});

test("${VAR} and ${VAR:-default} expand in command, args, env, url and headers", () => {
  const env = { BIN: "/opt/bin/srv", TOKEN: "t0k", PORT: "" };
  expect(parseEntry({ command: "${BIN}", args: ["--port", "${PORT:-8080}"], env: { T: "${TOKEN}" } }, env)).toEqual({
    command: "/opt/bin/srv",
    args: ["--port", "8080"],
    env: { T: "t0k" },
  });
  expect(parseEntry({ type: "http", url: "http://h:${PORT:-1}/m", headers: { Authorization: "Bearer ${TOKEN}" } }, env)).toMatchObject({
    url: "http://h:1/m",
    headers: { Authorization: "Bearer t0k" },
  });
  expect(expandText("a ${X:-} b", {})).toEqual({ value: "a  b" });
});

test("an unset ${VAR} without a default makes the entry unusable, naming the variable", () => {
  expect(parseEntry({ command: "srv", args: ["${MISSING_DIR}"] }, {})).toEqual({
    problem: "${MISSING_DIR} in its args is not set: set MISSING_DIR, or write ${MISSING_DIR:-default}",
  });
});

async function layout() {
  const root = await mkdtemp(join(tmpdir(), "rein-mcp-"));
  const home = join(root, "home");
  const project = join(root, "proj");
  await mkdir(home, { recursive: true });
  await mkdir(join(project, ".rein"), { recursive: true });
  // rein's own files as loadConfig reads them (REIN_CONFIG_DIR is the user config's folder)
  const opts = (trusted: boolean) => ({
    projectRoot: project,
    home,
    rein: loadConfig({ cwd: project, projectRoot: project, env: { REIN_CONFIG_DIR: home }, overrides: {} }).mcpServers,
    trusted,
    env: {},
  });
  return { home, project, opts };
}

test("the nearer source wins whole; ~/.claude.json's user and project entries are read", async () => {
  const { home, project, opts } = await layout();
  await writeFile(
    join(home, ".claude.json"),
    JSON.stringify({
      mcpServers: { a: { command: "user-a", env: { KEEP: "no" } }, b: { command: "user-b" } },
      projects: { [project]: { mcpServers: { c: { command: "local-c" } } } },
    }),
  );
  await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { a: { command: "rein-a" } } }));
  await writeFile(join(project, ".rein", "config.json"), JSON.stringify({ mcpServers: { d: { command: "project-d" } } }));
  await writeFile(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { b: { type: "http", url: "http://127.0.0.1:1/mcp" } } }));
  const { servers } = serverConfigs(opts(true));
  const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
  expect(byName.a).toMatchObject({ scope: "user", source: join(home, "config.json"), entry: { command: "rein-a" } });
  expect(byName.d).toMatchObject({ scope: "project", source: join(project, ".rein", "config.json"), entry: { command: "project-d" } });
  expect(byName.a!.entry).not.toHaveProperty("env"); // whole entry, no merging
  expect(byName.b).toMatchObject({ scope: "project", source: join(project, ".mcp.json"), entry: { type: "http" } });
  expect(byName.c).toMatchObject({ scope: "local", entry: { command: "local-c" } });
});

test("project sources do not start in an untrusted workspace; a broken file is a warning", async () => {
  const { home, project, opts } = await layout();
  await writeFile(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: "./run-me" } } }));
  await writeFile(join(home, ".claude.json"), "{ not json");
  const { servers, warnings } = serverConfigs(opts(false));
  expect(servers).toHaveLength(1);
  expect(servers[0]!.entry).toBeUndefined();
  expect(servers[0]!.problem).toContain("not trusted");
  expect(warnings[0]).toContain(".claude.json: not valid JSON");
});
