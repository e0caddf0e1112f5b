#!/usr/bin/env bun
// Composition root. `--version` is answered before anything heavy is imported; each mode is
// loaded with a dynamic import after argv is parsed.
import { VERSION } from "./version.ts";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  process.stdout.write(`rein ${VERSION}\n`);
} else {
  const { run } = await import("./cli/run.ts");
  const code = await run(argv);
  // Flush what is buffered, then exit: an idle stdin or a kept-alive socket must not hold rein open.
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  process.exit(code);
}
