// What a front end shows about a model: its context window and whether its prices are known.
import { modelInfo } from "../llm/models.ts";

export function modelWindow(model: string): { contextWindow: number; known: boolean } {
  const info = modelInfo(model);
  return { contextWindow: info.contextWindow, known: info.known };
}
