// Commands whose job is to print a credential: no path names it, the program finds it itself.
import { basename } from "node:path";

// Each: the program, then words that must all appear among its arguments (any order).
const PRINTERS: ReadonlyArray<readonly [string, readonly string[], string]> = [
  ["gpg", ["--export-secret-keys"], "GPG secret keys"],
  ["gpg", ["--export-secret-subkeys"], "GPG secret keys"],
  ["gpg2", ["--export-secret-keys"], "GPG secret keys"],
  ["gh", ["auth", "token"], "the GitHub CLI token"],
  ["gh", ["auth", "status", "--show-token"], "the GitHub CLI token"],
  ["gh", ["auth", "status", "-t"], "the GitHub CLI token"],
  ["gcloud", ["print-access-token"], "a Google Cloud token"],
  ["gcloud", ["print-identity-token"], "a Google Cloud token"],
  ["aws", ["configure", "get"], "AWS credentials"],
  ["aws", ["configure", "export-credentials"], "AWS credentials"],
  ["aws", ["get-login-password"], "a registry password"],
  ["az", ["get-access-token"], "an Azure token"],
  ["git", ["credential", "fill"], "git credentials"],
  ["git", ["credential-store"], "git credentials"],
  ["git", ["credential-cache"], "git credentials"],
  ["security", ["find-generic-password"], "the keychain"],
  ["security", ["find-internet-password"], "the keychain"],
  ["security", ["dump-keychain"], "the keychain"],
  ["secret-tool", ["lookup"], "the desktop keyring"],
  ["pass", ["show"], "the password store"],
  ["op", ["read"], "1Password"],
  ["op", ["item", "get"], "1Password"],
  ["bw", ["get"], "Bitwarden"],
  ["lpass", ["show"], "LastPass"],
  ["vault", ["read"], "Vault secrets"],
  ["vault", ["kv", "get"], "Vault secrets"],
  ["kubectl", ["config", "view", "--raw"], "Kubernetes credentials"],
  ["npm", ["token", "list"], "npm tokens"],
  ["keyctl", ["print"], "the kernel keyring"],
];

/** What `argv` prints when it is a credential printer (deny in every mode), else undefined. */
export function credentialCommand(argv: readonly string[]): string | undefined {
  const name = basename(argv[0] ?? "");
  const args = argv.slice(1);
  if (/^docker-credential-/.test(name) && args.includes("get")) return "container registry credentials";
  const memory = processMemory(name, args);
  if (memory) return memory;
  if ((name === "npm" || name === "pnpm" || name === "yarn") && args.includes("config") && args.some((a) => /_auth|token|password/i.test(a))) return "an npm registry token";
  for (const [program, words, what] of PRINTERS) {
    if (program === name && words.every((word) => args.includes(word))) return what;
  }
  return undefined;
}

// What dumps or reads another process's memory or environment (rein's own API key is in both).
function processMemory(name: string, args: readonly string[]): string | undefined {
  if (name === "gcore") return "a process's memory (a core dump)";
  if (name === "coredumpctl" && args.some((a) => /^(?:dump|debug|gdb)$/.test(a))) return "a core dump, which holds a process's memory";
  if ((name === "gdb" || name === "lldb") && args.some((a) => /^(?:-p\d*|--pid(?:=.*)?|--attach-pid(?:=.*)?|-ex=?.*\battach\b.*)$/.test(a) || /^attach\b/.test(a))) {
    return "a process's memory (attached with a debugger)";
  }
  // ps's BSD-style `e` (`ps eww`, `ps auxe`) prints every process's environment.
  if (name === "ps" && psEnvironment(args)) return "the environments of running processes";
  return undefined;
}

// procps: a word without a dash is a bundle of BSD options unless it is the value of the option
// before it (`ps -u steve`, `ps -o user`).
function psEnvironment(args: readonly string[]): boolean {
  return args.some((a, i) => {
    const before = args[i - 1] ?? "";
    const isValue = /^-[A-Za-z]*[CGgOopqstUu]$/.test(before) || (/^--\w[\w-]*$/.test(before) && !/^--(?:cumulative|deselect|forest|headers|info|no-headers|help|version)$/.test(before));
    return !isValue && /^[A-Za-z]*e[A-Za-z]*$/.test(a) && !/^-/.test(a);
  });
}
