// Runs a shell command in the workspace. The basic version: timeout and abort kill the whole
// process group; stdout and stderr are merged in order; provider keys never reach the child.
import * as v from "valibot";
import { defineTool } from "rein/tool";
import description from "../prompts/tools/bash.txt" with { type: "text" };

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
const SECRET_ENV = /^(ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN|REIN_SERVER_TOKEN|REIN_.*_KEY)$/;
// Anything beyond plain words is left to the full shell analysis; until then such a line is opaque.
const SHELL_SYNTAX = /[;&|<>$`(){}\\\n*?[\]~!#'"]/;

export default defineTool({
  name: "bash",
  description,
  input: v.object({
    command: v.pipe(v.string(), v.minLength(1), v.description("The command line to run")),
    timeout: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(MAX_TIMEOUT_MS), v.description("Milliseconds; default 120000")),
    ),
  }),
  permissions: ({ command }) => {
    const line = command.trim();
    if (SHELL_SYNTAX.test(line)) return [{ permission: "bash", pattern: line, always: [], opaque: true }];
    return [{ permission: "bash", pattern: line, always: [line] }];
  },
  async run({ command, timeout }, ctx) {
    const proc = Bun.spawn(["bash", "-c", `exec 2>&1\n${command}`], {
      cwd: ctx.cwd,
      env: childEnv(),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      detached: true,
    });
    const killGroup = () => {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), killGroup()), timeout ?? DEFAULT_TIMEOUT_MS);
    ctx.signal.addEventListener("abort", killGroup, { once: true });
    let output = "";
    try {
      const decoder = new TextDecoder();
      for await (const bytes of proc.stdout) {
        const chunk = decoder.decode(bytes, { stream: true });
        output += chunk;
        ctx.output(chunk);
      }
      output += decoder.decode();
      const code = await proc.exited;
      if (timedOut) return { output: `${output}\n[killed: timed out after ${(timeout ?? DEFAULT_TIMEOUT_MS) / 1000}s]`, isError: true };
      if (ctx.signal.aborted) return { output: `${output}\n[killed: interrupted]`, isError: true };
      return code === 0 ? output : `${output}\n[exit code ${code}]`;
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", killGroup);
      killGroup(); // background children left behind by the command go too
    }
  },
});

function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !SECRET_ENV.test(key)) env[key] = value;
  }
  return env;
}
