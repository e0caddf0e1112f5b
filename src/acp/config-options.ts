// A session's ACP `configOptions`, as Claude's ACP adapter offers them: the mode (rein's permission
// modes and primary agents, the same list as `modes`) and the model (those of the providers with a
// key). `session/set_config_option` checks a value against them. Pure.
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";

/** A model a client can pick: `value` as `--model` takes it (`sonnet-4.5`, `openai/gpt-5.2`). */
export type ModelOption = { value: string; name: string; description?: string };

export const MODE_OPTION = "mode";
export const MODEL_OPTION = "model";

export function configOptions(modes: SessionModeState, models: readonly ModelOption[], currentModel: string): SessionConfigOption[] {
  // The session's model is offered even when no listed provider names it (a model set in the config by its full id).
  const listed = models.some((m) => m.value === currentModel) ? models : [{ value: currentModel, name: currentModel }, ...models];
  return [
    {
      id: MODE_OPTION,
      name: "Mode",
      description: "How rein asks before it acts, or the agent it runs as",
      category: "mode",
      type: "select",
      currentValue: modes.currentModeId,
      options: modes.availableModes.map((m) => ({ value: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) })),
    },
    {
      id: MODEL_OPTION,
      name: "Model",
      description: "The model the next turns run on",
      category: "model",
      type: "select",
      currentValue: currentModel,
      options: listed.map((m) => ({ value: m.value, name: m.name, ...(m.description ? { description: m.description } : {}) })),
    },
  ];
}

/** Why `value` is no value of option `configId`, or undefined when it is one. */
export function badValue(options: readonly SessionConfigOption[], configId: string, value: unknown): string | undefined {
  const option = options.find((o) => o.id === configId);
  if (!option) return `no config option "${configId}": the options are ${options.map((o) => o.id).join(", ")}`;
  if (option.type !== "select") return `config option "${configId}" takes no value`;
  const values = option.options.flatMap((o) => ("group" in o ? o.options : [o])).map((o) => o.value);
  if (typeof value !== "string" || !values.includes(value)) return `no ${configId} ${JSON.stringify(value)}: choose one of ${values.join(", ")}`;
  return undefined;
}
