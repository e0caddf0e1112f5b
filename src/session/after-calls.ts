// Several after-call handlers as one: each runs in turn on the output the one before left, and
// their contexts go beside the result together.
import type { CallChain } from "../agent/types.ts";

type After = NonNullable<CallChain["afterToolCall"]>;

export function afterCalls(...handlers: (After | undefined)[]): After | undefined {
  const list = handlers.filter((h): h is After => h !== undefined);
  if (list.length <= 1) return list[0];
  return async (call, signal) => {
    let output: string | undefined;
    const contexts: string[] = [];
    for (const handler of list) {
      const heard = await handler(output === undefined ? call : { ...call, output }, signal);
      if (heard?.output !== undefined) output = heard.output;
      if (heard?.context) contexts.push(heard.context);
    }
    return output !== undefined || contexts.length ? { ...(output !== undefined ? { output } : {}), ...(contexts.length ? { context: contexts.join("\n\n") } : {}) } : undefined;
  };
}
