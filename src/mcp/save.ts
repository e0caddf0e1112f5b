// rein mcp add/remove: writes one `mcpServers` entry of rein's own config file, keeping everything
// else in the file as it was (replaced atomically). Claude Code's files are never written.
import { readConfigObject, writeConfigObject } from "../config/config-object.ts";

/** Sets (or, with `entry` undefined, removes) the server; false when removing one the file does not have. Throws with a sentence. */
export function saveServer(file: string, name: string, entry: Record<string, unknown> | undefined): boolean {
  const config = readConfigObject(file);
  if (!config) throw new Error(`${file} is not a JSON object, so it was not changed; fix the file first`);
  const servers = config.mcpServers && typeof config.mcpServers === "object" && !Array.isArray(config.mcpServers) ? (config.mcpServers as Record<string, unknown>) : {};
  if (!entry && !(name in servers)) return false;
  if (entry) servers[name] = entry;
  else delete servers[name];
  config.mcpServers = servers;
  writeConfigObject(file, config);
  return true;
}

