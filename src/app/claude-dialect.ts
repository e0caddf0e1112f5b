// Claude Code's names and shapes of tools and results (hooks/dialect.ts), as the Claude output
// formats reach them: not through session-hooks.ts, so a run that asks for neither loads none of it.
export { claudeContent, claudeInputOf, claudeName, claudeResponse } from "../hooks/dialect.ts";
