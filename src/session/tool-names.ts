// Tool names in rein's vocabulary and Claude Code's, for front ends (which reach permission/ through the session).
export { BUILTIN_TOOLS, reinToolName } from "../permission/tool-names.ts";
