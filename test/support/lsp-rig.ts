// What the language-server tests share: the fake server's path, and the hubs and folders a test
// makes, killed and removed after each test (registered by lspCleanup, once per file).
import { afterEach } from "bun:test";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import type { LspHub } from "../../src/lsp/hub.ts";

export const FAKE_LSP = resolve(import.meta.dir, "../fake/fake-lsp.ts");

export function lspCleanup(): { dirs: string[]; hubs: LspHub[] } {
  const dirs: string[] = [];
  const hubs: LspHub[] = [];
  afterEach(() => {
    hubs.splice(0).forEach((h) => h.kill());
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  return { dirs, hubs };
}
