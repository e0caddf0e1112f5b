import { describe, expect, test } from "bun:test";
import { sensitivePath } from "../../../src/permission/sensitive.ts";

const HOME = "/home/ann";
const REIN = ["/home/ann/.config/rein", "/home/ann/.local/share/rein"];
const action = (path: string, home = HOME) => sensitivePath(path, home, REIN)?.action;

describe("sensitivePath", () => {
  const denied = [
    "/home/ann/.ssh",
    "/home/ann/.ssh/id_rsa",
    "/home/ann/.ssh/config",
    "/home/ann/.ssh/authorized_keys",
    "/home/ann/.aws/credentials",
    "/home/ann/.config/gcloud/application_default_credentials.json",
    "/home/ann/.azure/accessTokens.json",
    "/home/ann/.docker/config.json",
    "/home/ann/.kube/config",
    "/home/ann/.gnupg/private-keys-v1.d/x.key",
    "/home/ann/.npmrc",
    "/home/ann/.pypirc",
    "/home/ann/.cargo/credentials",
    "/home/ann/.cargo/credentials.toml",
    "/home/ann/.gem/credentials",
    "/home/ann/.netrc",
    "/home/ann/.git-credentials",
    "/home/ann/.config/gh/hosts.yml",
    "/etc/shadow",
    "/etc/sudoers",
    "/etc/sudoers.d/90-users",
    "/home/ann/.config/rein/config.json",
    "/home/ann/.config/rein/config.json.1234.tmp",
    "/home/ann/.local/share/rein/trust.json",
    "/home/ann/.local/share/rein/rein.db",
    "/home/ann/.local/share/rein/rein.db-wal",
    "/home/ann/.local/share/rein/server-token",
    // other agents' logins, histories, processes' environments and memory, core dumps, rein's data
    "/home/ann/.claude/.credentials.json",
    "/home/ann/.claude.json",
    "/home/ann/.codex/auth.json",
    "/home/ann/.local/share/opencode/auth.json",
    "/home/ann/.bash_history",
    "/home/ann/.zsh_history",
    "/home/ann/.python_history",
    "/home/ann/.node_repl_history",
    "/home/ann/.psql_history",
    "/home/ann/.mysql_history",
    "/home/ann/.local/share/fish/fish_history",
    "/root/.bash_history",
    "/proc/1/environ",
    "/proc/self/environ",
    "/proc/4242/task/4243/environ",
    "/proc/1/mem",
    "/proc/kcore",
    "/var/crash/_usr_bin_node.1000.crash",
    "/work/app/core.12345",
    "/home/ann/.local/share/rein/checkpoints/s1/0001/src/.env",
    "/home/ann/.local/share/rein/prompt-history.jsonl",
    "/home/ann/.local/share/rein/mcp-tokens.json",
    "/home/ann/.local/share/rein/mcp/logs/github.log",
  ];
  test.each(denied)("%p is denied", (path) => {
    const match = sensitivePath(path, HOME, REIN);
    expect(match?.action).toBe("deny");
    expect(match?.reason).toContain("protected in every permission mode");
  });

  const asked = ["/work/app/.env", "/work/app/.env.local", "/work/app/.env.production", "/work/app/config/prod.env", "/home/ann/.env"];
  test.each(asked)("%p asks (an .env file)", (path) => {
    expect(sensitivePath(path, HOME, REIN)).toEqual({ action: "ask", reason: "an environment file, which often holds secrets" });
  });

  const ordinary = [
    "/work/app/.env.example",
    "/work/app/.env.sample",
    "/work/app/.env.template",
    "/work/app/environment.ts",
    "/work/app/.envrc.d/x",
    "/home/ann/.sshd_notes",
    "/home/ann/.ssh-backup/id_rsa",
    "/home/ann/project/.ssh/id_rsa",
    "/home/ann/.SSH/id_rsa",
    "/home/ann/.docker/daemon.json",
    "/home/ann/.cargo/bin/rg",
    "/home/ann/.config/gh/config.yml",
    "/home/ann/.config/rein/tools/mytool.ts",
    "/home/ann/.config/rein/AGENTS.md",
    "/home/ann/.local/share/rein/output/abc.txt",
    "/home/ann/.local/share/rein/output/config.json",
    "/etc/passwd",
    "/etc/shadowy",
    "/home/ann/.claude/settings.json",
    "/home/ann/.claude/CLAUDE.md",
    "/home/ann/.codex/config.toml",
    "/work/app/.history/src/a.ts",
    "/work/app/.Rhistory",
    "/work/app/src/core/index.ts",
    "/proc/cpuinfo",
    "/proc/1/status",
    "/home/ann/.local/share/rein/memory/user/notes.md",
    "/work/app/src/index.ts",
  ];
  test.each(ordinary)("%p is not sensitive", (path) => {
    expect(sensitivePath(path, HOME, REIN)).toBeUndefined();
  });

  test("the path and home are normalised; a trailing slash on home does not matter", () => {
    expect(action("/home/ann/./.ssh//id_rsa")).toBe("deny");
    expect(action("/home/ann/work/../.ssh/id_rsa")).toBe("deny");
    expect(action("/home/ann/.ssh/id_rsa", "/home/ann/")).toBe("deny");
  });

  test("a home of / still protects /.ssh", () => {
    expect(action("/.ssh/id_rsa", "/")).toBe("deny");
    expect(action("/srv/.ssh/id_rsa", "/")).toBeUndefined();
  });

  test("rein's folders are protected only when given", () => {
    expect(sensitivePath("/home/ann/.config/rein/config.json", HOME)).toBeUndefined();
    expect(sensitivePath("/srv/rein-config/config.json", HOME, ["/srv/rein-config/"])?.action).toBe("deny");
  });
});
