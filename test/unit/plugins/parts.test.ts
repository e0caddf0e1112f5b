// The smaller parts of plugins/, on real files and repositories: enabling in the user config
// (enabled.ts), what installing lets a plugin run (summary.ts), ${CLAUDE_PLUGIN_ROOT} and its kin
// (plugin-env.ts), git sources (git.ts) and bringing a source where it can be read (fetch-source.ts).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isOn, setEnabled } from "../../../src/plugins/enabled.ts";
import { stageSource } from "../../../src/plugins/fetch-source.ts";
import { failureLine, gitClone, isGitUrl } from "../../../src/plugins/git.ts";
import { fillDeep, fillPluginVars, pluginEnv } from "../../../src/plugins/plugin-env.ts";
import { readPlugin, type Plugin } from "../../../src/plugins/read-plugin.ts";
import { pluginStore } from "../../../src/plugins/store.ts";
import { bringsSummary, runsSummary } from "../../../src/plugins/summary.ts";
import { commitAll, copyKit, git, gitRepo, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
beforeEach(() => {
  d = pluginDirs();
});
afterEach(() => d.dir.remove());

describe("enabledPlugins in the user config", () => {
  test("enable, disable and remove one id; the rest of the file is kept; the last one gone drops the key", () => {
    const file = put(join(d.configDir, "config.json"), JSON.stringify({ model: "m", enabledPlugins: { other: false } }));
    const read = () => JSON.parse(readFileSync(file, "utf8"));
    expect(setEnabled(file, "kit", true)).toBeUndefined();
    expect(read()).toEqual({ model: "m", enabledPlugins: { other: false, kit: true } });
    setEnabled(file, "kit", false);
    expect(read().enabledPlugins).toEqual({ other: false, kit: false });
    setEnabled(file, "kit", undefined);
    setEnabled(file, "other", undefined);
    expect(read()).toEqual({ model: "m" });
  });

  test("no config file is made; one that is not a JSON object is left alone with what to do", () => {
    const file = join(d.configDir, "new", "config.json");
    setEnabled(file, "kit", true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ enabledPlugins: { kit: true } });
    writeFileSync(file, "[1, 2]");
    expect(setEnabled(file, "kit", false)).toBe(`${file} is not a JSON object; fix it, then run this again`);
    expect(readFileSync(file, "utf8")).toBe("[1, 2]");
  });

  test("an enabledPlugins that is not an object is replaced by one holding the id", () => {
    const file = put(join(d.configDir, "config.json"), JSON.stringify({ enabledPlugins: ["kit"], theme: "dark" }));
    expect(setEnabled(file, "kit", true)).toBeUndefined();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ enabledPlugins: { kit: true }, theme: "dark" });
  });

  test("the user's word wins; a project's true counts only in a trusted workspace, its false never turns the user's on off", () => {
    const enabled = { user: { mine: true, off: false }, project: { mine: false, off: true, theirs: true } };
    expect(isOn("mine", enabled, false)).toBe(true);
    expect(isOn("off", enabled, true)).toBe(false);
    expect(isOn("theirs", enabled, false)).toBe(false);
    expect(isOn("theirs", enabled, true)).toBe(true);
    expect(isOn("unknown", enabled, true)).toBe(false);
  });
});

describe("what a plugin runs, for the person to read before installing", () => {
  function kit(): Plugin {
    const root = copyKit(d);
    put(join(root, ".lsp.json"), JSON.stringify({ tsls: { command: "typescript-language-server", args: ["--stdio"], extensionToLanguage: { ".ts": "typescript", ".tsx": "typescriptreact" } } }));
    put(join(root, "hooks", "more.json"), "{}");
    const plugin = readPlugin(root, { dataRoot: pluginStore(d.dataDir).data });
    if (typeof plugin === "string") throw new Error(plugin);
    return plugin;
  }

  test("each hook handler, MCP server and language server with its command line, and bin/'s programs", () => {
    const plugin = kit();
    expect(runsSummary(plugin)).toEqual([
      'hook UserPromptSubmit: echo "kit hook: root=$CLAUDE_PLUGIN_ROOT data=$REIN_PLUGIN_DATA"',
      "MCP server where: bun ${CLAUDE_PLUGIN_ROOT}/servers/where.ts", // as written: the person reads what the file says
      "language server tsls: typescript-language-server --stdio (started at the first .ts, .tsx file)",
      "bin/ on the bash tool's PATH: kit-hello",
    ]);
    expect(bringsSummary(plugin)).toBe("2 command files, 1 skill folder, 1 agent file");
  });

  test("matchers, http and prompt handlers, URL servers; a plugin with nothing else brings nothing else", () => {
    const plugin: Plugin = {
      ...kit(),
      hooks: [{ file: "h.json", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: "https://hooks.example/x" }, { type: "prompt", prompt: "is it safe?" }, { type: "agent" }] }] } }],
      mcpServers: [{ file: "m.json", servers: { remote: { type: "http", url: "https://mcp.example/mcp" } } }],
      lspServers: [],
      commands: [],
      skills: [],
      agents: [],
      bin: undefined,
    };
    expect(runsSummary(plugin)).toEqual(["hook PreToolUse(Bash): POST https://hooks.example/x", "hook PreToolUse(Bash): a model prompt", "hook PreToolUse(Bash): agent handler", "MCP server remote: https://mcp.example/mcp"]);
    expect(bringsSummary(plugin)).toBe("nothing else");
  });
});

test("a plugin that is one skill (a SKILL.md at its root) brings that skill, counted as such", () => {
  const root = put(join(d.plugins, "solo", "SKILL.md"), "---\nname: solo\ndescription: one skill\n---\nDo the thing.");
  const plugin = readPlugin(join(root, ".."), { dataRoot: pluginStore(d.dataDir).data });
  if (typeof plugin === "string") throw new Error(plugin);
  expect(plugin.skill).toBe(root);
  expect(runsSummary(plugin)).toEqual([]);
  expect(bringsSummary(plugin)).toBe("1 skill (its SKILL.md)");
});

describe("plugin variables", () => {
  const plugin = { root: "/p/root", dataDir: "/p/data" };

  test("both spellings of both variables are filled in every string of a value; keys stay as they are", () => {
    expect(fillPluginVars("${CLAUDE_PLUGIN_ROOT}/a ${REIN_PLUGIN_DATA}/b $CLAUDE_PLUGIN_ROOT ${OTHER}", plugin)).toBe("/p/root/a /p/data/b $CLAUDE_PLUGIN_ROOT ${OTHER}");
    expect(fillDeep({ "${CLAUDE_PLUGIN_ROOT}": ["${REIN_PLUGIN_ROOT}/x", 3, { y: "${CLAUDE_PLUGIN_DATA}" }], n: null }, plugin)).toEqual({ "${CLAUDE_PLUGIN_ROOT}": ["/p/root/x", 3, { y: "/p/data" }], n: null });
    expect(pluginEnv(plugin)).toEqual({ CLAUDE_PLUGIN_ROOT: "/p/root", CLAUDE_PLUGIN_DATA: "/p/data", REIN_PLUGIN_ROOT: "/p/root", REIN_PLUGIN_DATA: "/p/data" });
  });
});

describe("git sources", () => {
  test("what names a repository rather than a folder", () => {
    for (const url of ["https://github.com/o/r", "ssh://git@host/r", "git://host/r", "file:///tmp/r", "git@github.com:o/r.git", "../some/repo.git"]) expect(isGitUrl(url)).toBe(true);
    for (const path of ["./plugin", "/abs/plugin", "plugin@market", "C:/x"]) expect(isGitUrl(path)).toBe(false);
  });

  test("git's reason is its first fatal or error line; a repository the server will not show says so", () => {
    expect(failureLine("Cloning into 'x'...\nfatal: unable to access 'https://h/': Could not resolve host: h\nhint: more\n")).toBe("unable to access 'https://h/': Could not resolve host: h");
    expect(failureLine("remote: Repository not found.\nfatal: repository 'https://github.com/o/nope/' not found\n")).toBe("the repository does not exist, or it is private and git has no login for it (git: repository 'https://github.com/o/nope/' not found)");
    expect(failureLine("something odd\nlast words")).toBe("last words");
    expect(failureLine("  \n")).toBeUndefined();
  });

  test("a clone at a ref checks it out; a ref that is not there is one line", () => {
    const repo = join(d.dir.path, "repo");
    put(join(repo, "v.txt"), "one");
    const url = gitRepo(repo);
    const first = git(repo, "rev-parse", "HEAD");
    git(repo, "tag", "v1");
    put(join(repo, "v.txt"), "two");
    commitAll(repo, "second");
    const pinned = gitClone(url, join(d.dir.path, "at-v1"), "v1");
    expect(pinned).toEqual({ commit: first });
    expect(readFileSync(join(d.dir.path, "at-v1", "v.txt"), "utf8")).toBe("one");
    const latest = gitClone(url, join(d.dir.path, "latest"));
    expect(latest).toEqual({ commit: git(repo, "rev-parse", "HEAD") });
    const missing = gitClone(url, join(d.dir.path, "bad-ref"), "no-such-ref");
    expect((missing as { error: string }).error).toStartWith(`cannot check out no-such-ref in ${url}: `);
  });

  test("staging: a folder is read in place; a repository is cloned into the temp folder and removed when done; a subfolder must be inside it", () => {
    const store = pluginStore(d.dataDir);
    const folder = put(join(d.dir.path, "folder", "x.md"), "x");
    expect(stageSource({ kind: "path", path: join(folder, "..") }, store)).toMatchObject({ root: join(d.dir.path, "folder"), name: "folder" });
    expect(stageSource({ kind: "path", path: folder }, store)).toEqual({ error: `${folder}: not a folder (give a plugin's folder, a git URL or NAME@MARKETPLACE)` });
    const repo = join(d.dir.path, "tools.git");
    put(join(repo, "pkgs", "one", "README.md"), "one");
    const url = gitRepo(repo);
    const staged = stageSource({ kind: "git", url, subdir: "pkgs/one" }, store);
    if ("error" in staged) throw new Error(staged.error);
    expect(staged.name).toBe("one");
    expect(readFileSync(join(staged.root, "README.md"), "utf8")).toBe("one");
    expect(staged.commit).toBe(git(repo, "rev-parse", "HEAD"));
    staged.done();
    expect(existsSync(staged.root)).toBe(false);
    expect(stageSource({ kind: "git", url, subdir: "pkgs/two" }, store)).toEqual({ error: `${url}: no folder pkgs/two in the repository` });
    expect(stageSource({ kind: "git", url, subdir: "../.." }, store)).toEqual({ error: `${url}: no folder ../.. in the repository` });
    expect(readdirSync(store.tmp)).toEqual([]); // every failed clone was removed too
    const whole = stageSource({ kind: "git", url }, store);
    expect(whole).toMatchObject({ name: "tools" });
    if (!("error" in whole)) whole.done();
  });
});
