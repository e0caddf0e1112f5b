// Workspace trust: project tools (and a project config that loosens permissions) run or widen what
// repository code may do, so they apply only in a workspace the user trusted. The answer is kept in
// the user's data folder, never in the repository.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readOwnText } from "../sdk/own-file.ts";

type TrustFile = { trusted: string[]; distrusted: string[] };

export type TrustAnswer = "trusted" | "distrusted" | "unknown";

export function trustFile(dataDir: string): string {
  return join(dataDir, "trust.json");
}

export function workspaceTrust(dataDir: string, root: string): TrustAnswer {
  const file = read(trustFile(dataDir));
  if (file.trusted.includes(root)) return "trusted";
  if (file.distrusted.includes(root)) return "distrusted";
  return "unknown";
}

export function rememberTrust(dataDir: string, root: string, trusted: boolean): void {
  const path = trustFile(dataDir);
  const file = read(path);
  const next: TrustFile = {
    trusted: file.trusted.filter((d) => d !== root),
    distrusted: file.distrusted.filter((d) => d !== root),
  };
  (trusted ? next.trusted : next.distrusted).push(root);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

function read(path: string): TrustFile {
  try {
    const parsed = JSON.parse(readOwnText(path)) as Partial<TrustFile>;
    return {
      trusted: Array.isArray(parsed.trusted) ? parsed.trusted.filter((d) => typeof d === "string") : [],
      distrusted: Array.isArray(parsed.distrusted) ? parsed.distrusted.filter((d) => typeof d === "string") : [],
    };
  } catch {
    return { trusted: [], distrusted: [] }; // missing or unreadable: nothing is trusted
  }
}
