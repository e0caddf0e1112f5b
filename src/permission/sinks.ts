// What a tainted session may not do without a person (taint.ts): the requests that could carry
// data out or plant code for later. A command is a sink unless the analysis shows it stays on
// this machine (read-only by the analysis, or a program that cannot reach the network); webfetch
// of a host the session has not fetched before; a write outside the workspace; a write to a file
// that runs code later (CI workflows, git hooks, package.json, Makefiles, shell rc files, agents'
// settings and MCP configs, rein's own config). The answer says why, for the person and the model.
import { basename, isAbsolute, relative } from "node:path";
import type { PermissionRequest } from "./evaluate.ts";

export type SinkContext = { workspace: string; home: string; reinDirs: readonly string[]; fetchedHosts: ReadonlySet<string> };

/** Programs that reach other machines by design. */
const NETWORK = new Set([
  "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "sftp", "ssh", "scp", "rsync", "http", "https", "xh", "aria2c",
  "gh", "glab", "aws", "gcloud", "gsutil", "az", "kubectl", "helm", "terraform", "docker", "podman", "nslookup", "dig", "host", "ping",
  "sendmail", "mail", "mutt", "openssl", "python", "python3", "node", "bun", "deno", "ruby", "perl", "php", "lua",
]);
/** Package managers: these subcommands reach a registry (install, publish, ...). */
const REGISTRY = /^(npm|pnpm|yarn|bun|npx|bunx|pnpx|pip|pip3|uv|pipx|poetry|gem|bundle|cargo|go|composer|mvn|gradle|dotnet|nuget|apt|apt-get|brew)\b/;
/** What a package manager does without the network (running scripts is not among them: a script can do anything). */
const LOCAL_PACKAGE_COMMANDS = /^(npm|pnpm|yarn|bun) (ls|list|why|--version|-v)\b/;
/** git subcommands that talk to a remote, wherever they stand after git's own options. */
const GIT_REMOTE = /^git\b.*\s(push|fetch|pull|clone|ls-remote|send-email|request-pull|(remote\s+update)|(submodule\s+(update|add|sync|foreach))|(archive\s.*--remote))\b/;
/** Programs that stay on this machine (they read and write files, nothing else). */
const LOCAL = new Set([
  "ls", "cat", "head", "tail", "wc", "grep", "rg", "find", "fd", "echo", "printf", "true", "false", "test", "[", "pwd", "cd", "mkdir", "rmdir", "rm", "cp", "mv",
  "ln", "touch", "chmod", "sed", "awk", "gawk", "sort", "uniq", "cut", "tr", "diff", "patch", "tee", "xargs", "basename", "dirname", "realpath", "stat",
  "file", "du", "df", "date", "sleep", "which", "type", "jq", "yq", "tar", "gzip", "gunzip", "zip", "unzip", "git",
]);

export function sinkReason(requests: readonly PermissionRequest[], ctx: SinkContext): string | undefined {
  for (const r of requests) {
    const why = requestSink(r, ctx);
    if (why) return why;
  }
  return undefined;
}

function requestSink(r: PermissionRequest, ctx: SinkContext): string | undefined {
  if (r.permission === "bash") return commandSink(r);
  if (r.permission === "webfetch") {
    const host = URL.parse(r.pattern)?.host;
    return host && !ctx.fetchedHosts.has(host) ? `a fetch of ${host}, a host this session has not fetched before, can send data out in its address` : undefined;
  }
  if (r.permission === "external_directory") return `${r.pattern} is outside the workspace`;
  if (r.permission === "edit") return codeFile(r.pattern, ctx);
  return undefined;
}

function commandSink(r: PermissionRequest): string | undefined {
  // The inner forms (what sudo, env, xargs or bash -c run) first, innermost first: a definite reason beats "cannot show".
  const forms = [...(r.alsoCheck ?? [])].reverse().map((pattern) => ({ ...r, pattern, opaque: false, readOnly: false }));
  const reasons = [...forms, r].map(oneCommand).filter((why): why is Sink => why !== undefined);
  return (reasons.find((why) => why.definite) ?? reasons[0])?.text;
}

type Sink = { text: string; definite: boolean };

function oneCommand(r: PermissionRequest): Sink | undefined {
  const line = r.pattern.trim();
  const words = line.split(/\s+/);
  const word = basename(words[0] ?? "");
  if (GIT_REMOTE.test(line)) return { text: `git ${GIT_REMOTE.exec(line)![1]!.split(/\s+/)[0]} talks to a remote`, definite: true };
  if (NETWORK.has(word)) return { text: `${word} can send data out`, definite: true };
  if (REGISTRY.test(line) && !LOCAL_PACKAGE_COMMANDS.test(line)) {
    return REGISTRY_SUBCOMMANDS.test(words[1] ?? "")
      ? { text: `${word} ${words[1]} can reach a package registry (and runs the packages' scripts)`, definite: true }
      : { text: `${word} ${words[1] ?? ""} runs the project's scripts, which the analysis cannot show stay on this machine`.replace("  ", " "), definite: false };
  }
  if (WRAPPERS.has(word)) return undefined; // what it runs is among the inner forms
  if (r.readOnly && !r.opaque) return undefined;
  if (r.opaque) return { text: `the analysis cannot show that this command stays on this machine${r.reason ? ` (${r.reason})` : ""}`, definite: false };
  if (LOCAL.has(word) || LOCAL_PACKAGE_COMMANDS.test(line)) return undefined;
  return { text: `the analysis cannot show that ${word} stays on this machine`, definite: false };
}

const REGISTRY_SUBCOMMANDS = /^(install|i|add|ci|publish|update|upgrade|up|exec|x|dlx|create|init|get|download|fetch|push|login|remove|uninstall|rm)$/;
/** Commands that run another; the engine lists what they run as inner forms. */
const WRAPPERS = new Set(["env", "sudo", "doas", "nice", "nohup", "time", "timeout", "xargs", "exec", "command", "builtin", "stdbuf", "ionice", "setsid", "bash", "sh", "zsh", "dash"]);

/** Files whose contents run later, outside this call: CI, hooks, scripts, agents' settings. */
function codeFile(path: string, ctx: SinkContext): string | undefined {
  const rel = isAbsolute(path) ? relative(ctx.workspace, path) : path;
  const inHome = isAbsolute(path) ? relative(ctx.home, path) : "..";
  const name = basename(path);
  if (ctx.reinDirs.some((dir) => !relative(dir, path).startsWith(".."))) return `${path} is rein's own configuration`;
  if (/^\.github\/workflows\//.test(rel) || /^\.gitlab-ci\.yml$|^\.circleci\//.test(rel)) return `${rel} is a CI workflow, which runs code later`;
  if (/(^|\/)\.git\/hooks\//.test(rel) || /^\.husky\//.test(rel) || name === ".pre-commit-config.yaml") return `${rel} is a git hook, which runs code later`;
  if (name === "package.json") return `${rel} holds scripts that run later`;
  if (/^(GNU)?[Mm]akefile$|\.mk$|^justfile$|^Taskfile\.ya?ml$/.test(name)) return `${rel} runs commands later`;
  if (/^\.claude\/settings(\.local)?\.json$|^\.mcp\.json$|^\.rein\/|^opencode\.jsonc?$|^\.opencode\/|^\.vscode\/(tasks|settings)\.json$|^\.envrc$/.test(rel)) return `${rel} configures what agents and editors run`;
  if (!inHome.startsWith("..") && /^(\.(bash|zsh)rc|\.profile|\.bash_profile|\.zprofile|\.zshenv|\.config\/fish\/)/.test(inHome)) return `${path} runs in every new shell`;
  return undefined;
}
