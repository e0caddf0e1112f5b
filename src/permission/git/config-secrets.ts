// Whether the configuration git would print holds a secret: a checkout token (actions/checkout keeps
// one as http.<url>.extraheader), a password or token value, or a remote URL with a password in it.
// An include is not followed: what it pulls in is unknown, so it counts as a secret.
import { join } from "node:path";
import { readOwnText } from "../../sdk/own-file.ts";

const SECRET = /^\s*[\w.-]*(?:extraheader|token|password|secret)\s*=|:\/\/[^/\s:@]+:[^/\s@]+@|^\s*\[\s*include/im;

/** The first config file of the workspace's repository, the user or the system that holds a secret. */
export function configWithSecret(workspace: string, home: string, extra: readonly string[] = []): string | undefined {
  const files = [join(workspace, ".git", "config"), join(home, ".gitconfig"), join(home, ".config", "git", "config"), "/etc/gitconfig", ...extra];
  return files.find((file) => SECRET.test(readOrEmpty(file)));
}

function readOrEmpty(file: string): string {
  try {
    return readOwnText(file);
  } catch {
    return "";
  }
}
