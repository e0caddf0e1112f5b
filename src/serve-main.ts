// Entry of `rein --serve` from main.ts: argv in, exit code out, usage and config errors as exit 2.
import { parseArgs } from "./app/args.ts";
import { bothTerminals } from "./app/output.ts";
import { fail } from "./cli/run.ts";

export async function serveMain(argv: string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    const { serve, startServer } = await import("./serve.ts");
    // In a terminal, --serve runs the interactive session and serves it (and any other) over HTTP.
    if (!args.print && (await bothTerminals())) {
      return await (await import("./cli/interactive.ts")).interactive(args, process.env, { serve: async (...a) => startServer(...a), serveNow: true });
    }
    return await serve(args, process.env);
  } catch (error) {
    return fail(error);
  }
}
