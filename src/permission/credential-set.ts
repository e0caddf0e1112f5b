// The credential set: every path no rule or mode may open up, in one list that every route uses
// (shell operands, redirects, option values, recursive reads, text the analysis cannot follow, the
// read and edit tools, and the kernel sandbox's masks). sensitive.ts matches paths against it.

// Under the home directory: the entry itself and, for directories, everything inside.
export const HOME_DENIED: ReadonlyArray<readonly [string, string]> = [
  [".ssh", "SSH keys and configuration"],
  [".gnupg", "GPG keys"],
  [".aws", "AWS credentials"],
  [".config/gcloud", "Google Cloud credentials"],
  [".azure", "Azure credentials"],
  [".kube", "Kubernetes credentials"],
  [".docker/config.json", "container registry credentials"],
  [".config/containers/auth.json", "container registry credentials"],
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
  [".config/github-copilot", "GitHub Copilot token"],
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
  [".cache/huggingface/token", "Hugging Face token"],
  [".huggingface/token", "Hugging Face token"],
  [".mozilla", "browser passwords and cookies"],
  [".config/google-chrome", "browser passwords and cookies"],
  [".config/chromium", "browser passwords and cookies"],
  [".config/BraveSoftware", "browser passwords and cookies"],
  // Other coding agents' logins and what they were told.
  [".claude/.credentials.json", "Claude Code's login"],
  [".claude.json", "Claude Code's account and API key"],
  [".claude/history.jsonl", "Claude Code's prompt history"],
  [".codex/auth.json", "Codex's login"],
  [".codex/history.jsonl", "Codex's prompt history"],
  [".local/share/opencode/auth.json", "OpenCode's logins"],
  [".local/share/opencode/mcp-auth.json", "OpenCode's MCP logins"],
  [".pi/agent/auth.json", "pi's logins"],
  [".gemini/oauth_creds.json", "Gemini CLI's login"],
  // Shell and REPL histories: commands typed with passwords and tokens in them.
  [".bash_history", "shell history"],
  [".zsh_history", "shell history"],
  [".zhistory", "shell history"],
  [".histfile", "shell history"],
  [".sh_history", "shell history"],
  [".history", "shell history"],
  [".local/share/fish/fish_history", "shell history"],
  [".config/fish/fish_history", "shell history"],
  [".python_history", "Python REPL history"],
  [".node_repl_history", "Node.js REPL history"],
  [".ts_node_repl_history", "ts-node REPL history"],
  [".bun_repl_history", "Bun REPL history"],
  [".psql_history", "PostgreSQL client history"],
  [".mysql_history", "MySQL client history"],
  [".sqlite_history", "SQLite client history"],
  [".rediscli_history", "Redis client history"],
  [".dbshell", "MongoDB shell history"],
  [".mongosh", "MongoDB shell history"],
  [".irb_history", "Ruby REPL history"],
  [".pry_history", "Ruby REPL history"],
  [".scala_history", "Scala REPL history"],
  [".julia/logs/repl_history.jl", "Julia REPL history"],
  [".Rhistory", "R history"],
  [".lesshst", "less's search history"],
  [".viminfo", "vim's history and registers"],
];

export const SYSTEM_DENIED: ReadonlyArray<readonly [string, string]> = [
  ["/etc/shadow", "system password hashes"],
  ["/etc/shadow-", "system password hashes"],
  ["/etc/gshadow", "system password hashes"],
  ["/etc/sudoers", "sudo configuration"],
  ["/etc/sudoers.d", "sudo configuration"],
  ["/proc/kcore", "the kernel's memory"],
  ["/dev/mem", "the machine's memory"],
  ["/dev/kmem", "the kernel's memory"],
  ["/var/lib/systemd/coredump", "core dumps, which hold a process's memory"],
  ["/var/crash", "core dumps, which hold a process's memory"],
  ["/var/lib/apport/coredump", "core dumps, which hold a process's memory"],
];

// Entries with `*` standing for any one name: every process's environment and memory
// (`/proc/self/environ`, `/proc/$PPID/environ` holds rein's own API key).
export const PATTERN_DENIED: ReadonlyArray<readonly [string, string]> = [
  ["/proc/*/environ", "a process's environment (API keys)"],
  ["/proc/*/task/*/environ", "a process's environment (API keys)"],
  ["/proc/*/mem", "a process's memory"],
  ["/proc/*/task/*/mem", "a process's memory"],
];

// A file of this name anywhere is a core dump (a plain `core` is too often a source folder).
export const CORE_DUMP = /^core\.\d+$/;

// Names of history files also found in projects (VS Code's Local History folder, R's working
// directory): only the one in the home counts.
export const AMBIGUOUS_NAMES: ReadonlySet<string> = new Set([".npmrc", ".yarnrc.yml", ".pypirc", ".history", ".Rhistory"]);

// In rein's config and data folders: the config (server token, saved approvals), the trust answers
// (trusting a workspace loads its tools), the session store, the checkpoints (copies of the
// workspace's files, .env too), the prompt history, MCP's logins, logs and settings. Other entries
// (user tools, AGENTS.md, skills, plugins, the output folder the agent is told to read) follow the
// ordinary rules.
export const REIN_SECRET = /^(?:config\.json|trust\.json|rein\.db|checkpoints|prompt-history[\w.-]*|mcp[\w-]*)(?:$|[.-])|token|secret|credential|auth/i;
