// A clone that fails says why in one truthful line: git's reason, never its closing advice ("and
// the repository exists."). Real git against a local HTTP server that answers as GitHub does for a
// repository that is missing (401, asking for a login) or as a plain server does (404).
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failureLine, gitClone } from "../../../src/plugins/git.ts";

// The server runs in its own process: gitClone blocks this one while git runs.
const SERVER = `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => new URL(req.url).pathname.startsWith("/private/") ? new Response("", { status: 401, headers: { "www-authenticate": 'Basic realm="GitHub"' } }) : new Response("not found", { status: 404 }) }); console.log(s.port);`;

test("cloning a repository the server hides or lacks is one line saying so, not git's last line", async () => {
  const server = Bun.spawn([process.execPath, "-e", SERVER], { stdout: "pipe" });
  try {
    const reader = server.stdout.getReader();
    const port = new TextDecoder().decode((await reader.read()).value).trim();
    const dest = mkdtempSync(join(tmpdir(), "rein-clone-"));
    for (const path of ["private/nothing.git", "missing/nothing.git"]) {
      const url = `http://127.0.0.1:${port}/${path}`;
      const cloned = gitClone(url, join(dest, path.replace(/\W/g, "-")));
      expect("error" in cloned).toBe(true);
      const error = "error" in cloned ? cloned.error : "";
      expect(error).toStartWith(`cannot clone ${url}: the repository does not exist, or it is private and git has no login for it (git: `);
      expect(error).not.toContain("\n");
      expect(error).not.toContain("and the repository exists");
    }
  } finally {
    server.kill();
    await server.exited;
  }
});

test("git's advice after the reason (an ssh remote that refuses) is left out", () => {
  const stderr = "ERROR: Repository not found.\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n";
  expect(failureLine(stderr)).toBe("the repository does not exist, or it is private and git has no login for it (git: Could not read from remote repository.)");
  expect(failureLine("fatal: destination path 'x' already exists and is not an empty directory.\n")).toBe("destination path 'x' already exists and is not an empty directory.");
});
