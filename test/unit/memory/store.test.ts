// The memory store on a real disk: two processes at once, a read-only folder, a memory file broken
// by hand, secrets refused.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findMemory, listMemories, memoryDirs, removeMemory, saveMemory } from "../../../src/memory/store.ts";
import { secretIn } from "../../../src/memory/secrets.ts";
import { tempDir } from "../../support/temp-dir.ts";

const dir = tempDir("rein-memstore-");
afterAll(() => dir.remove());
const STORE = join(import.meta.dir, "../../../src/memory/store.ts");

test("two processes writing 15 memories each at once: all 30 files and 30 index lines are kept", async () => {
  const dirs = memoryDirs(join(dir.path, "race"), "/work/project");
  const script = (who: string) =>
    `import { saveMemory } from ${JSON.stringify(STORE)};
     const dirs = ${JSON.stringify(dirs)};
     for (let i = 0; i < 15; i++) {
       const r = await saveMemory(dirs, "project", { name: "${who} " + i, description: "from ${who}", type: "project", text: "note " + i });
       if (typeof r === "string") { console.error(r); process.exit(1); }
     }`;
  const runs = ["a", "b"].map((who) => Bun.spawn([process.execPath, "-e", script(who)], { stderr: "pipe" }));
  expect(await Promise.all(runs.map((p) => p.exited))).toEqual([0, 0]);
  const index = readFileSync(join(dirs.project, "MEMORY.md"), "utf8").trim().split("\n");
  expect(index).toHaveLength(30);
  expect(new Set(index).size).toBe(30);
  expect(listMemories(dirs).memories).toHaveLength(30);
  expect(readdirSync(dirs.project).filter((f) => f.endsWith(".tmp") || f === ".lock")).toEqual([]);
});

test("listing while another process saves and removes memories never fails on a file removed since the listing", async () => {
  const dirs = memoryDirs(join(dir.path, "churn"), "/work/project");
  expect(typeof (await saveMemory(dirs, "project", { name: "Kept", description: "d", type: "project", text: "kept" }))).toBe("object");
  const script = `import { removeMemory, saveMemory } from ${JSON.stringify(STORE)};
    const dirs = ${JSON.stringify(dirs)};
    for (let i = 0; i < 150; i++) {
      const m = await saveMemory(dirs, "project", { name: "churn " + i, description: "d", type: "project", text: "t" });
      if (typeof m !== "string") await removeMemory(dirs, m);
    }`;
  const churn = Bun.spawn([process.execPath, "-e", script], { stderr: "pipe" });
  let lists = 0;
  while (churn.exitCode === null) {
    expect(listMemories(dirs).memories.map((m) => m.name)).toContain("Kept");
    lists++;
    await Bun.sleep(0);
  }
  expect(await churn.exited).toBe(0);
  expect(lists).toBeGreaterThan(0);
  expect(listMemories(dirs).memories.map((m) => m.name)).toEqual(["Kept"]);
});

test("a read-only memory folder: the write is refused with one line saying what to do, and nothing is lost", async () => {
  const dirs = memoryDirs(join(dir.path, "ro"), "/work/project");
  expect(typeof (await saveMemory(dirs, "project", { name: "Kept", description: "d", type: "project", text: "kept" }))).toBe("object");
  const script = `import { saveMemory } from ${JSON.stringify(STORE)};
    const r = await saveMemory(${JSON.stringify(dirs)}, "project", { name: "New", description: "d", type: "project", text: "new" });
    console.log(typeof r === "string" ? r : "saved");`;
  // root ignores file modes: a read-only bind mount is read-only for everyone
  const run = Bun.spawn(["bwrap", "--bind", "/", "/", "--ro-bind", dirs.project, dirs.project, process.execPath, "-e", script], { stdout: "pipe" });
  const said = (await new Response(run.stdout).text()).trim();
  expect(said).toBe(`not saved: the memory folder ${dirs.project} cannot be written (EROFS); make it writable, or set REIN_DATA_DIR to a folder that is`);
  expect(listMemories(dirs).memories.map((m) => m.name)).toEqual(["Kept"]);
});

test("a memory file broken by hand is listed with what is wrong; the others still load; update and remove work", async () => {
  const dirs = memoryDirs(join(dir.path, "broken"), "/work/project");
  await saveMemory(dirs, "project", { name: "Good one", description: "fine", type: "feedback", text: "Prefer small commits." });
  writeFileSync(join(dirs.project, "bad.md"), "---\nname: Bad\ntype: opinion\n---\ntext");
  writeFileSync(join(dirs.project, "open.md"), "---\nname: Open\n");
  const { memories, broken } = listMemories(dirs);
  expect(memories.map((m) => m.name)).toEqual(["Good one"]);
  expect(broken.map((b) => b.problem)).toEqual([
    "its front matter type is wrong: one of user, project, feedback, reference",
    "the front matter is not closed (no second line ---)",
  ]);
  await saveMemory(dirs, "project", { name: "Good one", description: "changed", type: "feedback", text: "Prefer tiny commits." });
  expect(findMemory(dirs, "good-one")?.text).toBe("Prefer tiny commits.");
  expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toBe("- [Good one](good-one.md) (feedback): changed\n");
  await removeMemory(dirs, findMemory(dirs, "Good one")!);
  expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toBe("");
});

test("what looks like a secret is found; references to one are not", () => {
  expect(secretIn("-----BEGIN RSA PRIVATE KEY-----\nabc")).toBe("a private key or an access token");
  expect(secretIn("key sk-ant-api03-abcdefghijklmnop")).toBe("a private key or an access token");
  expect(secretIn("db at postgres://app:s3cretpw@db.internal/app")).toBe("a URL with a password in it");
  expect(secretIn("set STRIPE_KEY=rk_live_51Habc")).toBe("a value for STRIPE_KEY");
  expect(secretIn("the admin password is Winter2026!")).toBe("a password or key written out");
  expect(secretIn("export GITHUB_TOKEN=$GH_TOKEN before pushing")).toBeUndefined();
  expect(secretIn("API keys live in 1Password; use pnpm; ports: 5432")).toBeUndefined();
  expect(secretIn("type: project, name: Layout")).toBeUndefined();
});

test("a memory folder that is a file: listing says so in one line naming the file; a save says the same, not an errno", async () => {
  const data = join(dir.path, "as-file");
  const dirs = memoryDirs(data, "/work/project");
  mkdirSync(join(data), { recursive: true });
  writeFileSync(join(data, "memory"), "not a folder");
  const { memories, folders } = listMemories(dirs);
  expect(memories).toEqual([]);
  const said = `the memory folder ${dirs.project} cannot be used: ${join(data, "memory")} is a file, not a folder; move or remove that file (or set REIN_DATA_DIR to another folder)`;
  expect(folders).toEqual([
    { scope: "project", dir: dirs.project, problem: said },
    { scope: "user", dir: dirs.user, problem: said.replace(dirs.project, dirs.user) },
  ]);
  expect(await saveMemory(dirs, "project", { name: "New", description: "d", type: "project", text: "new" })).toBe(`not saved: ${said}`);
});
