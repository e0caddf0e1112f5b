// rein mcp add/remove: writes one `mcpServers` entry of rein's own config file, keeping everything
// else in the file as it was (replaced atomically). Claude Code's files are never written.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Sets (or, with `entry` undefined, removes) the server; false when removing one the file does not have. Throws with a sentence. */
export function saveServer(file: string, name: string, entry: Record<string, unknown> | undefined): boolean {
  const config = existsSync(file) ? parse(file) : {};
  const servers = config.mcpServers && typeof config.mcpServers === "object" && !Array.isArray(config.mcpServers) ? (config.mcpServers as Record<string, unknown>) : {};
  if (!entry && !(name in servers)) return false;
  if (entry) servers[name] = entry;
  else delete servers[name];
  config.mcpServers = servers;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return true;
}

function parse(file: string): Record<string, unknown> {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new Error(`${file} is not a JSON object, so it was not changed; fix the file first`);
}
