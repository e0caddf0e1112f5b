// User and project tools import `rein/tool` and `valibot` with no node_modules beside them: a Bun
// plugin serves both from the binary's own copies (so tools share rein's valibot instance). The one
// place where the registry depends on the Bun runtime.
import * as valibot from "valibot";
import * as sdk from "../sdk.ts";

let registered = false;

export function registerToolModules(): void {
  if (registered) return;
  registered = true;
  Bun.plugin({
    name: "rein-tool-modules",
    setup(build) {
      build.module("rein/tool", () => ({ exports: { ...sdk }, loader: "object" }));
      build.module("valibot", () => ({ exports: { ...valibot }, loader: "object" }));
    },
  });
}
