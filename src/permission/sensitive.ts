// Paths no rule or mode may open up (credentials, rein's own secrets) and paths that always ask
// (`.env` files). Checked before any rule, on the path as resolveForCheck returns it (absolute,
// symlinks resolved); `home` and `reinDirs` must be resolved the same way, or a symlinked home
// would hide ~/.ssh. Matching is case-sensitive.
import { basename, normalize } from "node:path";
import { envFile } from "../sdk/env-file.ts";

export type SensitiveMatch = { action: "deny" | "ask"; reason: string };

// Under the home directory: the entry itself and, for directories, everything inside.
export const HOME_DENIED: ReadonlyArray<readonly [string, string]> = [
  [".ssh", "SSH keys and configuration"],
  [".gnupg", "GPG keys"],
  [".aws", "AWS credentials"],
  [".config/gcloud", "Google Cloud credentials"],
  [".azure", "Azure credentials"],
  [".kube", "Kubernetes credentials"],
  [".docker/config.json", "container registry credentials"],
  [".npmrc", "npm registry token"],
  [".yarnrc.yml", "yarn registry token"],
  [".pypirc", "PyPI token"],
  [".cargo/credentials", "crates.io token"],
  [".cargo/credentials.toml", "crates.io token"],
  [".gem/credentials", "RubyGems token"],
  [".netrc", "network login credentials"],
  [".git-credentials", "git credentials"],
  [".config/git/credentials", "git credentials"],
  [".config/gh/hosts.yml", "GitHub CLI token"],
  [".pgpass", "PostgreSQL passwords"],
  [".vault-token", "Vault token"],
  [".terraform.d/credentials.tfrc.json", "Terraform Cloud token"],
  [".password-store", "password store"],
  [".local/share/keyrings", "desktop keyrings"],
  [".config/hub", "GitHub token"],
  [".config/glab-cli", "GitLab token"],
  [".config/rclone/rclone.conf", "cloud storage credentials"],
  [".config/doctl", "DigitalOcean token"],
  [".config/op", "1Password session"],
  [".config/configstore", "CLI tokens (firebase, npm tools)"],
  [".config/pip/pip.conf", "package index credentials"],
  [".config/composer/auth.json", "Composer credentials"],
  [".composer/auth.json", "Composer credentials"],
  [".s3cfg", "S3 credentials"],
  [".boto", "cloud storage credentials"],
  [".oci", "Oracle Cloud credentials"],
  [".databrickscfg", "Databricks token"],
  [".my.cnf", "MySQL password"],
  [".m2/settings.xml", "Maven repository credentials"],
  [".gradle/gradle.properties", "Gradle repository credentials"],
  [".bundle/config", "RubyGems credentials"],
  [".nuget/NuGet/NuGet.Config", "NuGet credentials"],
  [".terraformrc", "Terraform token"],
  [".mozilla", "browser passwords and cookies"],
  [".config/google-chrome", "browser passwords and cookies"],
  [".config/chromium", "browser passwords and cookies"],
  [".config/BraveSoftware", "browser passwords and cookies"],
];

export const SYSTEM_DENIED: ReadonlyArray<readonly [string, string]> = [
  ["/etc/shadow", "system password hashes"],
  ["/etc/shadow-", "system password hashes"],
  ["/etc/gshadow", "system password hashes"],
  ["/etc/sudoers", "sudo configuration"],
  ["/etc/sudoers.d", "sudo configuration"],
];

// In rein's config and data folders: the config (server token, saved approvals), the trust answers
// (trusting a workspace loads its tools) and the session store. Other files there (user tools,
// AGENTS.md, the output folder the agent is told to read) follow the ordinary rules.
const REIN_SECRET = /^(config\.json|trust\.json|rein\.db)($|[.-])|token/;

// Inside a repository's git folder: its config can run programs (core.fsmonitor, core.pager,
// aliases) and often holds a checkout token; hooks run on the next commit.
const GIT_CONFIG = /\/\.git(?:\/(?:modules|worktrees)\/[^/]+)*\/(?:config|config\.worktree)$/;
const GIT_HOOKS = /\/\.git(?:\/(?:modules|worktrees)\/[^/]+)*\/hooks(?:\/|$)/;

/**
 * Whether a path is sensitive: "deny" whatever the mode and rules, "ask" for `.env` files
 * (`.env`, `.env.local`, `prod.env`; not `.env.example`, `.env.sample`, `.env.template`).
 * `reinDirs` are rein's config and data folders.
 */
export function sensitivePath(
  absolutePath: string,
  home: string,
  reinDirs: readonly string[] = [],
  permission: "read" | "edit" = "read",
): SensitiveMatch | undefined {
  const path = normalize(absolutePath);
  const homeDir = normalize(home).replace(/(.)\/$/, "$1");
  for (const [rel, what] of HOME_DENIED) {
    if (within(path, `${homeDir === "/" ? "" : homeDir}/${rel}`)) return deny(what);
  }
  // Another user's home holds the same kinds of secrets (`~root/.ssh`, /home/bob/.aws).
  const other = /^(?:\/root|\/home\/[^/]+|\/Users\/[^/]+|\/var\/root)\/(.+)$/.exec(path)?.[1];
  if (other !== undefined) {
    for (const [rel, what] of HOME_DENIED) if (within(other, rel)) return deny(what);
  }
  for (const [entry, what] of SYSTEM_DENIED) {
    if (within(path, entry)) return deny(what);
  }
  for (const dir of reinDirs) {
    const parent = normalize(dir).replace(/(.)\/$/, "$1");
    if (path.startsWith(`${parent}/`) && !path.slice(parent.length + 1).includes("/") && REIN_SECRET.test(basename(path))) {
      return deny("rein's own secrets and settings");
    }
  }
  if (envFile(basename(path))) return { action: "ask", reason: "an environment file, which often holds secrets" };
  return gitInternal(path, permission);
}

export { envFile };

function gitInternal(path: string, permission: "read" | "edit"): SensitiveMatch | undefined {
  if (GIT_CONFIG.test(path)) {
    return { action: "ask", reason: permission === "edit" ? "a git config, which can make git run programs" : "a git config, which can hold a checkout token" };
  }
  if (permission !== "edit") return undefined;
  if (/\/(?:\.gitconfig|\.config\/git\/config)$/.test(path)) return { action: "ask", reason: "a git config, which can make git run programs" };
  if (GIT_HOOKS.test(path)) return { action: "ask", reason: "a git hook, which runs on the next commit" };
  if (/\/\.git$/.test(path)) return { action: "ask", reason: "a repository's git folder, whose config and hooks run programs" };
  return undefined;
}

function within(path: string, entry: string): boolean {
  return path === entry || path.startsWith(`${entry}/`);
}

function deny(what: string): SensitiveMatch {
  return { action: "deny", reason: `${what}, protected in every permission mode` };
}

/**
 * For a folder read as a whole (grep -r, a search, a listing): the protected entries inside it.
 * Reading such a folder asks, so a recursive search of ~ cannot sweep up ~/.ssh unseen.
 */
export function sensitiveWithin(absoluteDir: string, home: string): string[] {
  const dir = normalize(absoluteDir).replace(/(.)\/$/, "$1");
  return deniedEntries(home).filter((entry) => entry !== dir && within(entry, dir === "/" ? "" : dir));
}

/** The fixed entries denied in every mode (under `home` and the system's), whether or not they exist. */
export function deniedEntries(home: string): string[] {
  const homeDir = normalize(home).replace(/(.)\/$/, "$1");
  return [...HOME_DENIED.map(([rel]) => `${homeDir === "/" ? "" : homeDir}/${rel}`), ...SYSTEM_DENIED.map(([entry]) => entry)];
}
