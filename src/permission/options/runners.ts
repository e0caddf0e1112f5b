// The options and environment with which the commands people allow-list to run a project's own
// tests and scripts (`bash(npm test *)`, `bash(make test *)`, `bash(pytest *)`...) would run
// something else: another project, shell, configuration, plugin or interpreter. Such a line is
// opaque: no pattern allows it. These tables list only those options (the rest is left to the
// rules), so they are not complete.
import { optionTable } from "./table.ts";

export const PNPM = optionTable({
  complete: false,
  harmless: "--filter= -F= --workspace-root -w -r --recursive --reporter= --loglevel=",
  runs: `-C= --dir= --node-options= --script-shell= --shell-emulator -g --global --prefix= --global-dir= --userconfig=
    --npmrc= --config= --package= --store-dir= --virtual-store-dir=`,
});

export const YARN = optionTable({
  complete: false,
  harmless: "--silent -s --verbose --json --offline",
  runs: `--cwd= --use-yarnrc= --yarnrc= --modules-folder= --global-folder= --link-folder= --registry= --rc= --top-level
    -T --binaries-only -B --require= --node-options=`,
  write: "--cache-folder= --preferred-cache-folder=",
});

// bun's own parser: long options in full.
export const BUN = optionTable({
  abbreviations: false,
  complete: false,
  harmless: "--bail[=] --timeout= --rerun-each= --coverage --only --todo -t= --test-name-pattern= --watch --filter= -F=",
  runs: `--cwd= -r= --preload= --require= --import= -c= --config= --env-file= --shell= --install= -i --bun -b --define=
    -d= --loader= -l= --tsconfig-override= --main-fields= --conditions= --jsx-import-source= --inspect[=] --inspect-brk[=]
    --inspect-wait[=] --hot --smol --extension-order=`,
  write: "--coverage-dir= --reporter-outfile=",
});

export const NODE = optionTable({
  complete: false,
  runs: `-r= --require= --import= --loader= --experimental-loader= --env-file= --env-file-if-exists= --inspect[=]
    --inspect-brk[=] --inspect-wait[=] --run= --experimental-default-type= --conditions= -C=`,
});

export const MAKE = optionTable({
  complete: false,
  harmless: `-j[=] --jobs[=] -k --keep-going -n --just-print|--dry-run|--recon -s --silent|--quiet -B --always-make -i
    --ignore-errors -d --debug[=] -p --print-data-base -q --question -r --no-builtin-rules -R --no-builtin-variables -w
    --print-directory --no-print-directory -O[=] --output-sync[=] -l[=] --load-average[=] --trace -o= --old-file=|--assume-old=
    -W= --what-if=|--new-file=|--assume-new=`,
  runs: "-C= --directory= -f= --file=|--makefile= -E= --eval= -I= --include-dir= -e --environment-overrides",
  effect: "-t --touch",
});

export const PYTEST = optionTable({
  complete: false,
  runs: "-p= -c= --config-file= --rootdir= -o= --override-ini= --confcutdir= --pyargs --pastebin=",
  write: "--basetemp= --junitxml=|--junit-xml= --resultlog= --result-log= --debug[=]",
  harmless: "-k= -m= -x -q -v -s --lf --ff --tb= --maxfail= -n= --durations=",
});

// clap: long options in full. After `--` come the test binary's own arguments.
export const CARGO = optionTable({
  abbreviations: false,
  complete: false,
  harmless: "-p= --package= -F= --features= --test= --bench= --bin= --example= -j= --jobs= --profile= --target= --color=",
  runs: "--config= -Z= --manifest-path= -C= --lockfile-path=",
  write: "--target-dir= --artifact-dir=",
});

// Go's flag package: `-name` and `--name` alike, names in full.
export const GO = optionTable({
  abbreviations: false,
  complete: false,
  singleDashLong: true,
  harmless: "-run= -v -count= -race -short -timeout= -bench= -tags= -cover -json -p= -failfast -shuffle= -x -n",
  runs: "-exec= -toolexec= -C= -modfile= -overlay= -ldflags= -gccgoflags= -compiler= -asmflags= -gcflags= -vettool= -pgo=",
  write: "-o= -coverprofile= -cpuprofile= -memprofile= -blockprofile= -mutexprofile= -trace= -outputdir= -fuzzcache=",
});

/** Per command, the environment variables put in front of it that change what it runs. */
export const RUNNER_ENV: Record<string, RegExp> = {
  make: /^(?:MAKEFLAGS|MFLAGS|MAKEFILES|MAKELEVEL|GNUMAKEFLAGS|MAKESHELL|SHELL)=/,
  pytest: /^(?:PYTEST_ADDOPTS|PYTEST_PLUGINS|PYTEST_DISABLE_PLUGIN_AUTOLOAD|PY_COLORS)=/,
  cargo: /^(?:CARGO_\w*|RUSTFLAGS|RUSTDOCFLAGS|RUSTC|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTDOC|RUSTUP_\w*)=/,
  go: /^(?:GO\w*|CGO_\w*|CC|CXX|AR|PKG_CONFIG)=/,
};
