// A session database truncated by 1%, through the compiled binary: rein still starts, keeps the
// damaged file, says what it recovered, and the sessions it held are listed and can be continued.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { readdirSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { text, world } from "./harness.ts";

test.concurrent("sessions list on a truncated database: recovered, said so on stderr, the original kept; -c goes on", async () => {
  await using w = await world({ strict: true });
  for (const q of ["first", "second", "third"]) {
    w.fake.script({ reply: [text(`${q} answer ${"z".repeat(3000)}`)] });
    expect((await w.run(["-p", `${q} question`])).code).toBe(0);
  }
  const path = join(w.dataDir, "rein.db");
  const db = new Database(path);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  truncateSync(path, Math.floor(statSync(path).size * 0.99));

  const list = await w.run(["sessions", "list", "--json"]);

  expect(list.code).toBe(0);
  expect((JSON.parse(list.stdout) as unknown[]).length).toBe(3);
  const aside = readdirSync(w.dataDir).filter((name) => /^rein\.db\.corrupt-.*Z$/.test(name));
  expect(aside).toHaveLength(1);
  expect(list.stderr).toContain(`rein: the session database ${path} was damaged (the file is cut short: it holds `);
  expect(list.stderr).toContain(`the original is kept as ${join(w.dataDir, aside[0]!)}, and what could be read of it is in a new database: recovered 3 sessions (`);
  w.fake.script({ reply: [text("Still here.")] });
  expect(await w.run(["-c", "-p", "go on"])).toMatchObject({ code: 0, stdout: "Still here.\n", stderr: "" });
});
