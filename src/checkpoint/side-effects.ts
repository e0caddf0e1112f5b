// What a call did that a file checkpoint cannot take back, read from the permission engine's
// requests for it: the network reached, files written outside the workspace, packages installed,
// git commands that changed the repository. Each is one line shown with the undo.

export type Request = { permission: string; pattern: string };

const NETWORK = new Set(["curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "ncat", "telnet", "ftp", "http", "https", "gh", "aws", "gcloud", "az", "kubectl", "ping"]);
const INSTALLERS: Record<string, readonly string[]> = {
  npm: ["install", "i", "add", "ci", "update", "uninstall", "remove", "rm", "link", "publish"],
  pnpm: ["install", "i", "add", "update", "remove", "rm", "publish"],
  yarn: ["install", "add", "upgrade", "remove", "publish", ""],
  bun: ["install", "i", "add", "update", "remove", "rm", "link", "publish"],
  pip: ["install", "uninstall", "download"],
  pip3: ["install", "uninstall", "download"],
  uv: ["add", "remove", "sync", "pip"],
  cargo: ["install", "add", "update", "publish", "fetch"],
  go: ["get", "install", "mod"],
  gem: ["install", "uninstall", "update"],
  brew: ["install", "uninstall", "upgrade", "update"],
  "apt-get": ["install", "remove", "purge", "upgrade", "update"],
  apt: ["install", "remove", "purge", "upgrade", "update"],
  dnf: ["install", "remove", "upgrade"],
  docker: ["pull", "push", "build", "run"],
};
/** git subcommands that change the repository (its history, refs, stash, config) rather than only files. */
const GIT_CHANGES = new Set([
  "commit", "branch", "checkout", "switch", "merge", "rebase", "reset", "revert", "cherry-pick", "stash", "tag", "am", "apply",
  "pull", "push", "fetch", "clone", "remote", "config", "gc", "prune", "notes", "worktree", "submodule", "update-ref", "filter-branch", "add", "rm", "mv", "restore", "clean", "init",
]);
const GIT_NETWORK = new Set(["push", "pull", "fetch", "clone", "ls-remote", "submodule"]);

/** One line for each effect of these requests a checkpoint cannot undo. */
export function sideEffects(requests: readonly Request[]): string[] {
  const effects = new Set<string>();
  const outside = new Set(requests.filter((r) => r.permission === "external_directory").map((r) => r.pattern));
  for (const request of requests) {
    if (request.permission === "edit" && outside.has(request.pattern)) effects.add(`wrote outside the workspace: ${request.pattern}`);
    if (request.permission === "webfetch") effects.add(`reached the network: ${request.pattern}`);
    if (request.permission === "bash") for (const effect of commandEffects(request.pattern)) effects.add(effect);
  }
  return [...effects];
}

function commandEffects(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const name = (words[0] ?? "").replace(/^.*\//, "");
  const sub = words.slice(1).find((w) => !w.startsWith("-")) ?? "";
  const short = command.length > 80 ? `${command.slice(0, 77)}...` : command;
  if (name === "git") {
    const sub = gitSubcommand(words);
    const out: string[] = [];
    if (GIT_CHANGES.has(sub)) out.push(`changed the git repository: ${short}`);
    if (GIT_NETWORK.has(sub)) out.push(`reached the network: ${short}`);
    return out;
  }
  if (NETWORK.has(name)) return [`reached the network: ${short}`];
  const installs = INSTALLERS[name];
  if (installs && (installs.includes(sub) || (sub === "" && installs.includes("")))) return [`installed or changed packages (and reached the network): ${short}`];
  if (name === "pipx" || name === "npx" || name === "bunx") return [`may have downloaded and run packages: ${short}`];
  return [];
}

/** git's subcommand, past its global options (`-c key=value`, `-C dir`, `--git-dir=x`). */
function gitSubcommand(words: readonly string[]): string {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === "-c" || word === "-C" || word === "--git-dir" || word === "--work-tree" || word === "--namespace") i++;
    else if (!word.startsWith("-")) return word;
  }
  return "";
}
