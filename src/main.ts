#!/usr/bin/env bun
// Composition root. `--version` is answered before anything heavy is imported; each mode is
// loaded with a dynamic import after argv is parsed.
import { VERSION } from "./version.ts";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  console.log(`rein ${VERSION}`); // not process.stdout: building it costs Bun 1.4 about 15 ms
} else if (argv.includes("--serve")) {
  const { serveMain } = await import("./serve-main.ts");
  process.exit(await serveMain(argv));
} else {
  const { run } = await import("./cli/run.ts");
  // The terminal's /serve command starts the server (src/serve.ts), which the cli layer cannot import.
  const serve = async (...a: Parameters<typeof import("./serve.ts").startServer>) => (await import("./serve.ts")).startServer(...a);
  // Output is written synchronously (src/app/output.ts), so exiting now loses nothing; an idle
  // stdin or a kept-alive socket must not hold rein open.
  const acp = async (...a: Parameters<typeof import("./acp-main.ts").acpMain>) => (await import("./acp-main.ts")).acpMain(...a);
  process.exit(await run(argv, process.env, { serve, acp }));
}
