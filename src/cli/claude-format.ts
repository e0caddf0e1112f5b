// Claude Code's output formats by name, without their renderer (claude-stream.ts, loaded by a run
// that asks for one of them).
export const CLAUDE_FORMATS = ["claude-stream-json", "claude-json"] as const;
export const isClaudeFormat = (format: string): format is (typeof CLAUDE_FORMATS)[number] => (CLAUDE_FORMATS as readonly string[]).includes(format);

/** The renderer's module (it reads the hooks' Claude dialect), loaded synchronously on first use. */
export const claudeStream = () => require("./claude-stream.ts") as typeof import("./claude-stream.ts");
