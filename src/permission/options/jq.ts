// jq's own parser: short options bundle (`-nr`), long ones are spelled in full, and some take two
// words (`--arg NAME VALUE`). The first operand is the filter (with -f, the file holding it), then
// input files; `--args`/`--jsonargs` make the operands after it arguments, but jq still reads the
// options among them (`jq -n --args '$x' --rawfile x FILE` reads FILE); only `--` ends the options.
// -L and a filter's import/include load code or data from files, looked up in the library
// folders: each candidate file is a read. `env` and `$ENV` read the environment.
import type { PathHandler, PathSink } from "../command-options.ts";

const FLAGS = new Set(
  `--compact-output --null-input --exit-status --slurp --raw-output --raw-output0 --join-output --ascii-output
  --sort-keys --color-output --monochrome-output --raw-input --tab --unbuffered --stream --stream-errors --seq --help
  --version --build-configuration --nul-output --debug-dump-disasm --debug-trace`.split(/\s+/),
);
const SHORT = new Set([..."cnesrjaSCMRhV0"]);
// Options taking two words, and which of them is a file.
const PAIRS: Record<string, boolean> = { "--arg": false, "--argjson": false, "--slurpfile": true, "--rawfile": true, "--argfile": true };
const FILTER_CODE = /\b(?:import|include|modulemeta)\b|(?<![.\w$])env\b|\$ENV\b|\bget_search_list\b/;
// `import "PATH" as NAME {search: "DIR"};`, `include "PATH";`: the path and the rest of the statement.
const IMPORT = /\b(?:import|include)\s+"((?:[^"\\]|\\.)*)"([^;]*)/g;
const STRING = /"((?:[^"\\]|\\.)*)"/g;
// jq's default library path: `~/.jq`, then beside the jq program (/usr/lib/jq, /usr/lib).
const DEFAULT_LIBRARY = ["~/.jq", "/usr/lib/jq", "/usr/lib", "/usr/local/lib/jq", "/usr/local/lib"];

/** Whether jq has the option (for the --help comparison). */
export function jqKnows(option: string): boolean {
  if (/^-[a-zA-Z0-9]$/.test(option)) return SHORT.has(option[1]!) || option === "-f" || option === "-L";
  return FLAGS.has(option) || Object.hasOwn(PAIRS, option) || ["--indent", "--from-file", "--args", "--jsonargs", "--library-path", "--run-tests"].includes(option);
}

export const jqPaths: PathHandler = (args, s) => {
  const positionals: string[] = [];
  let fromFile = false;
  let argsMode = false;
  const library: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (w === "-" || !w.startsWith("-")) {
      positionals.push(w);
      continue;
    }
    if (Object.hasOwn(PAIRS, w)) {
      const file = args[i + 2];
      if (PAIRS[w] && file !== undefined) s.read(file);
      i += 2;
    } else if (w === "--indent") i++;
    else if (w === "--from-file") fromFile = true;
    else if (w === "--args" || w === "--jsonargs") argsMode = true;
    else if (w === "-L" || w === "--library-path" || w.startsWith("-L") || w.startsWith("--library-path=")) {
      s.opaque("jq -L loads modules from a folder");
      const dir = w === "-L" || w === "--library-path" ? args[++i] : w.startsWith("-L") ? w.slice(2) : w.slice(w.indexOf("=") + 1);
      if (dir !== undefined) library.push(dir);
    } else if (w === "--run-tests") s.opaque("jq --run-tests runs the tests of a file");
    else if (FLAGS.has(w)) continue;
    else if (/^-[a-zA-Z0-9]+$/.test(w) && [...w.slice(1)].every((c) => SHORT.has(c) || c === "f")) fromFile ||= w.includes("f");
    else s.opaque(`jq: rein does not know the option ${w}`);
  }
  const [filter, ...inputs] = positionals;
  if (fromFile && filter !== undefined) {
    s.read(filter);
    s.opaque("jq -f runs a filter from a file");
  }
  if (!fromFile && filter !== undefined && FILTER_CODE.test(filter)) {
    s.opaque("the jq filter loads modules or reads the environment");
    moduleReads(filter, library.length > 0 ? library : DEFAULT_LIBRARY, s);
  }
  if (!argsMode) inputs.forEach((w) => s.read(w));
};

// Each file an import could load: PATH.jq, PATH/NAME.jq (a module), PATH.json (data, `as $x`), in
// each library folder and each folder its `search` metadata names.
function moduleReads(filter: string, library: readonly string[], s: PathSink): void {
  for (const [, path = "", rest = ""] of filter.matchAll(IMPORT)) {
    const search = [...rest.matchAll(STRING)].map((m) => m[1]!);
    const last = path.split("/").pop() ?? path;
    for (const dir of [...library, ...search]) {
      const base = `${dir.replace(/\/$/, "")}/${path}`;
      for (const file of [`${base}.jq`, `${base}.json`, `${base}/${last}.jq`]) s.read(file);
    }
  }
}
