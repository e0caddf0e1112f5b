// What a front end shows about a model and its token counts, without loading the loop.
import { modelInfo } from "../llm/providers.ts";

export { promptTokens } from "../agent/context-size.ts";

/** The model's context window in tokens (the model table's default for an unknown model). */
export function modelWindow(model: string): number {
  return modelInfo(model).contextWindow;
}
