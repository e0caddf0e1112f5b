// A rein started by a rein hook (a UserPromptSubmit hook that runs `rein -p`, say) knows it: each hook
// process gets REIN_HOOK_DEPTH one more than the rein that runs it. A rein at MAX_HOOK_DEPTH fires no
// hooks, so a hook that starts rein cannot recurse without end.
export const MAX_HOOK_DEPTH = 2;
export const HOOK_DEPTH_ENV = "REIN_HOOK_DEPTH";

/** How many rein hooks deep this environment's rein runs (0: not under a hook). */
export function hookDepth(env: Readonly<Record<string, string | undefined>>): number {
  const depth = Number(env[HOOK_DEPTH_ENV]);
  return Number.isInteger(depth) && depth > 0 ? depth : 0;
}

/** Why hooks do not run at this depth, or undefined when they do. */
export function hookDepthStop(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const depth = hookDepth(env);
  if (depth < MAX_HOOK_DEPTH) return undefined;
  return `hooks are not run: this rein was started by a rein hook ${depth} deep (${HOOK_DEPTH_ENV}=${depth}; hooks run at most ${MAX_HOOK_DEPTH} deep), so a hook that starts rein cannot recurse`;
}
