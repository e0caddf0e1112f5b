// npm and npx read their options with nopt: every `--name` is a configuration setting, a unique
// prefix of a setting's name stands for it (`--scri` is --script-shell), `--no-name` turns one
// off, and single-dash shorthands expand (`-C` is --prefix, `-ws` --workspaces). Settings that
// choose what runs (a shell, node options, another prefix or config file...) make the command
// opaque, and so does a setting npm does not have: npm would take it for something unseen.
import type { PathSink } from "../command-options.ts";

// npm 11's settings (`npm config ls -l --json`), without the few that change what runs (below).
const HARMLESS = `long json omit-lockfile-registry-resolved fund audit update-notifier yes access all allow-same-version
  allow-directory allow-file allow-git allow-remote also audit-level auth-type before bin-links bypass-2fa cert cidr
  color commit-hooks cpu depth description dev diff diff-ignore-all-space diff-name-only diff-no-prefix
  diff-dst-prefix diff-src-prefix diff-text diff-unified dry-run engine-strict expect-result-count expect-results
  expires fetch-retries fetch-retry-factor fetch-retry-maxtimeout fetch-retry-mintimeout fetch-timeout force
  foreground-scripts format-package-lock git-tag-version global-style heading https-proxy if-present ignore-scripts
  include include-staged include-attestations init-author-email init-author-name init-author-url init-license
  init-type init-version init-private init.author.email init.author.name init.author.url init.license init.version
  install-links install-strategy key legacy-bundling legacy-peer-deps libc link local-address lockfile-version
  loglevel logs-max maxsockets message min-release-age min-release-age-exclude noproxy offline omit only orgs optional
  os otp package-lock package-lock-only packages parseable prefer-dedupe prefer-offline prefer-online preid
  production progress provenance proxy read-only save save-bundle save-dev save-exact save-optional save-peer
  save-prefix save-prod sbom-format sbom-type scope scopes packages-all packages-and-scopes-permission
  orgs-permission token-description searchexclude searchlimit searchopts searchstaleness shrinkwrap sign-git-commit
  sign-git-tag strict-peer-deps strict-ssl tag tag-version-prefix timing umask unicode usage user-agent version
  versions which workspaces workspaces-update npm-version ca cafile cache-max cache-min name silent quiet verbose`;
// Settings naming files npm reads or writes.
const READS = "workspace provenance-file";
const WRITES = "cache logs-dir pack-destination";
// Settings that choose a program, a shell, node options, a configuration file, another prefix, the
// package to run, or let scripts run that would not.
const RUNS = `browser call editor git globalconfig init-module node-gyp node-options nodedir prefix script-shell shell
  userconfig viewer global location registry replace-registry-host package allow-scripts dangerously-allow-all-scripts
  strict-allow-scripts allow-scripts-pending allow-scripts-pin rebuild-bundle include-workspace-root`;

const BOOLEAN = new Set(
  `long json fund audit update-notifier yes all allow-same-version bypass-2fa commit-hooks dev diff-ignore-all-space
  diff-name-only diff-no-prefix diff-text dry-run engine-strict force foreground-scripts format-package-lock
  git-tag-version global global-style if-present ignore-scripts include-staged include-workspace-root
  include-attestations init-private install-links legacy-bundling legacy-peer-deps link offline optional package-lock
  package-lock-only parseable prefer-dedupe prefer-offline prefer-online production progress provenance read-only
  rebuild-bundle save save-bundle save-dev save-exact save-optional save-peer save-prod shrinkwrap sign-git-commit
  sign-git-tag strict-peer-deps strict-ssl timing unicode usage version versions workspaces workspaces-update heading
  expect-results dangerously-allow-all-scripts strict-allow-scripts silent quiet verbose color`.split(/\s+/),
);

const SHORTHANDS: Record<string, string> = {
  a: "all", B: "save-bundle", C: "prefix", c: "call", D: "save-dev", d: "loglevel", dd: "loglevel", ddd: "loglevel",
  desc: "description", E: "save-exact", f: "force", g: "global", H: "usage", h: "usage", help: "usage", l: "long",
  local: "global", m: "message", n: "yes", N: "yes", O: "save-optional", p: "parseable", P: "save-prod",
  porcelain: "parseable", q: "loglevel", quiet: "loglevel", readonly: "read-only", reg: "registry", s: "loglevel",
  S: "save", silent: "loglevel", v: "version", verbose: "loglevel", w: "workspace", ws: "workspaces", y: "yes",
  iwr: "include-workspace-root", enjoy: "before", "enjoy-by": "before",
};
// Shorthands that carry their value (`-d` is --loglevel info).
const SHORTHAND_VALUED = new Set(["d", "dd", "ddd", "q", "quiet", "s", "silent", "verbose", "local", "n", "N"]);

const words = (list: string) => list.split(/\s+/).filter(Boolean);
type Kind = "harmless" | "read" | "write" | "runs";
const SETTINGS = new Map<string, Kind>([
  ...words(HARMLESS).map((n): [string, Kind] => [n, "harmless"]),
  ...words(READS).map((n): [string, Kind] => [n, "read"]),
  ...words(WRITES).map((n): [string, Kind] => [n, "write"]),
  ...words(RUNS).map((n): [string, Kind] => [n, "runs"]),
]);
const NAMES = [...SETTINGS.keys()];

/** A setting as nopt finds it: exact name, else the one setting it is a prefix of. */
function setting(name: string): string | { problem: string } {
  if (SETTINGS.has(name)) return name;
  const candidates = NAMES.filter((n) => n.startsWith(name));
  if (candidates.length === 1) return candidates[0]!;
  return { problem: candidates.length === 0 ? `npm has no setting --${name}` : `--${name} is an ambiguous abbreviation` };
}

/**
 * npm's arguments: settings checked, the rest (command, script, its arguments) returned. npx
 * passes everything after the package to it: settings end at the first operand.
 */
export function npmArgs(tool: string, args: readonly string[], sink: PathSink): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (tool === "npx" && rest.length > 0) {
      rest.push(word);
      continue;
    }
    if (word === "--") {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      rest.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const raw = (eq < 0 ? word : word.slice(0, eq)).replace(/^--?/, "");
    const long = word.startsWith("--");
    const names = long ? [raw.replace(/^no-/, "")] : shorthand(raw);
    if (names === undefined) {
      sink.opaque(`${tool} has no option ${word}`);
      return [];
    }
    for (const name of names) {
      const found = setting(name);
      if (typeof found !== "string") {
        sink.opaque(`${tool}: ${found.problem}`);
        return [];
      }
      const kind = SETTINGS.get(found)!;
      const takesNext = long && eq < 0 && !BOOLEAN.has(found) && !raw.startsWith("no-") && i + 1 < args.length;
      const value = eq >= 0 ? word.slice(eq + 1) : takesNext ? args[++i]! : undefined;
      if (kind === "runs") sink.opaque(`${tool} --${found} changes what runs`);
      if (kind === "read" && value !== undefined) sink.read(value);
      if (kind === "write" && value !== undefined) sink.write(value);
      if (!long && !SHORTHAND_VALUED.has(raw) && !BOOLEAN.has(found) && eq < 0 && i + 1 < args.length) {
        const next = args[++i]!;
        if (kind === "read") sink.read(next);
        if (kind === "write") sink.write(next);
      }
    }
  }
  return rest;
}

function shorthand(raw: string): string[] | undefined {
  if (Object.hasOwn(SHORTHANDS, raw)) return [SHORTHANDS[raw]!];
  const letters = [...raw];
  if (letters.every((l) => Object.hasOwn(SHORTHANDS, l))) return letters.map((l) => SHORTHANDS[l]!);
  return undefined;
}

/** Environment that configures npm, node or a package manager: it changes what runs. */
export const NODE_ENV = /^(?:npm_config_|NPM_CONFIG_|NODE_OPTIONS=|NODE_PATH=|NODE_REPL_EXTERNAL_MODULE=|YARN_|PNPM_|BUN_|BUNFIG|COREPACK_|npm_package_|npm_lifecycle_)/i;
