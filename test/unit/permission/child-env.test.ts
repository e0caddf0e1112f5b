// Which variables childEnv keeps out of a tool's processes: credentials by name or value, and
// never the everyday ones a command needs.
import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childEnv, looksSecret } from "../../../src/permission/child-env.ts";

const KEPT = ["PATH", "HOME", "LANG", "TERM", "PWD", "OLDPWD", "SHELL", "USER", "SSH_AUTH_SOCK", "GIT_AUTHOR_NAME", "GIT_ASKPASS", "XDG_RUNTIME_DIR", "KUBECONFIG", "DISPLAY", "NODE_ENV", "CI", "EDITOR", "LS_COLORS", "TOKENIZERS_PARALLELISM"];
const REMOVED = [
  "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GOOGLE_APIKEY", "API_KEY", "STRIPE_KEY", "SSH_PRIVATE_KEY", "GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN",
  "HF_TOKEN", "CI_JOB_TOKEN", "TOKEN", "CLIENT_SECRET", "SECRET_KEY_BASE", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
  "PGPASSWORD", "MYSQL_PWD", "SMTP_PASS", "DB_PASSWD", "GPG_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "npm_config__auth",
  "DOCKER_AUTH_CONFIG", "SENTRY_DSN", "CI_JOB_JWT", "AZURE_CLIENT_ID", "VAULT_ADDR", "MINIO_ACCESS_KEY_ID", "github_token",
];

test("credential-looking names are removed and everyday ones kept", () => {
  expect(KEPT.filter((name) => looksSecret(name, "plain"))).toEqual([]);
  expect(REMOVED.filter((name) => !looksSecret(name, "plain"))).toEqual([]);
});

test("a credential under a harmless name is removed by its value", () => {
  for (const value of ["sk-ant-api03-abc", "sk-proj-abcdefghijklmnop1234", "ghp_0123456789abcdefghij0123", "github_pat_11ABC", "glpat-xyz", "xoxb-1-2", "AKIAABCDEFGHIJKLMNOP", "postgres://app:pw@db/app", "-----BEGIN OPENSSH PRIVATE KEY-----"]) {
    expect([value, looksSecret("HARMLESS", value)]).toEqual([value, true]);
  }
  for (const value of ["https://example.com/path", "postgres://db/app", "sk", "/home/me/.kube/config"]) expect([value, looksSecret("HARMLESS", value)]).toEqual([value, false]);
});

test("rein's own keys never pass, even named in passthrough; other names pass when named", () => {
  const env = childEnv(
    { REIN_SERVER_TOKEN: "x", REIN_FUTURE_KEY: "x", ANTHROPIC_API_KEY: "x", GITHUB_TOKEN: "t", NPM_TOKEN: "n", PATH: "/bin" },
    { passthrough: ["REIN_SERVER_TOKEN", "ANTHROPIC_API_KEY", "GITHUB_TOKEN"], secrets: ["ANTHROPIC_API_KEY"] },
  );
  expect(Object.keys(env).sort()).toEqual(["GITHUB_TOKEN", "GIT_EDITOR", "GIT_PAGER", "GIT_TERMINAL_PROMPT", "PAGER", "PATH", "REIN", "SHLVL"]);
});

/** What `bash -c 'echo ok'` prints with its stdin a socket pair, as an MCP server's is (node's spawn with pipes, as the MCP SDK starts it). */
function bashOnSocket(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", "echo ok"], { env, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

test("a bash child whose stdin is a socket does not read the ~/.bashrc of its HOME (bash reads it where SHLVL is unset)", async () => {
  const home = mkdtempSync(join(tmpdir(), "rein-shlvl-"));
  try {
    writeFileSync(join(home, ".bashrc"), "echo BASHRC-READ\n");
    const parent = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
    const env = childEnv(parent);
    expect(env.SHLVL).toBe("1");
    expect(await bashOnSocket(env)).toBe("ok\n");
    // Without the level, this bash reads it: what the line above would show without the fix.
    expect(await bashOnSocket({ ...parent })).toBe("BASHRC-READ\nok\n");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("a shell level rein inherits is kept; an unset, empty or zero one becomes 1", () => {
  expect(childEnv({ SHLVL: "3" }).SHLVL).toBe("3");
  for (const level of [undefined, "", "0", "-1", "x"]) expect([level, childEnv(level === undefined ? {} : { SHLVL: level }).SHLVL]).toEqual([level, "1"]);
});
