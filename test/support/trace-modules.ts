// A preload (`bun --preload`) that writes the path of every module of src/ (and of chalk) as it
// loads, one a line, to $REIN_TRACE_MODULES: which of rein's modules a run loaded (test/unit/app/lazy-loading.test.ts).
import { appendFileSync, readFileSync } from "node:fs";

const out = process.env.REIN_TRACE_MODULES;
if (out) {
  Bun.plugin({
    name: "trace rein's modules",
    setup(build) {
      build.onLoad({ filter: /\/src\/.*\.ts$/ }, ({ path }) => {
        appendFileSync(out, `${path}\n`);
        return { contents: readFileSync(path, "utf8"), loader: "ts" };
      });
      // chalk, which the terminal's colours need and a one-shot does not (it loads node:tty and node:net).
      build.onLoad({ filter: /\/node_modules\/chalk\/.*\.js$/ }, ({ path }) => {
        appendFileSync(out, `${path}\n`);
        return { contents: readFileSync(path, "utf8"), loader: "js" };
      });
    },
  });
}
