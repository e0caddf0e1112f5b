// `rein doctor`'s look at the language servers: each configured one is started, asked to
// initialize, and stopped; a problem is the sentence a session would give.
import type { LspServerConfig } from "./config.ts";

export type Probe = { name: string; ok: boolean; detail: string };

export async function probeServers(configs: readonly LspServerConfig[], root: string, env: Readonly<Record<string, string>>, logDir: string, timeoutMs = 10_000): Promise<Probe[]> {
  if (!configs.length) return [];
  const { LspClient } = await import("./client.ts");
  return Promise.all(
    configs.map(async (config): Promise<Probe> => {
      const languages = [...new Set(Object.values(config.entry?.extensionToLanguage ?? {}))].join(", ");
      if (!config.entry) return { name: config.name, ok: false, detail: `${config.source}: ${config.problem}` };
      try {
        const client = await LspClient.start({ name: config.name, entry: config.entry, root, env, timeoutMs, logFile: `${logDir}/${config.name.replace(/[^\w.-]/g, "_")}.log` });
        client.stop();
        return { name: config.name, ok: true, detail: `starts (${languages}; ${config.entry.command}, from ${config.source})` };
      } catch (error) {
        return { name: config.name, ok: false, detail: `${error instanceof Error ? error.message : String(error)} (from ${config.source})` };
      }
    }),
  );
}
