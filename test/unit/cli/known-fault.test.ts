// Which failures are faults of the machine, told in one line, and which are bugs, shown with a trace.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { knownFault, OutputError } from "../../../src/app/known-fault.ts";
import { tempDir } from "../../support/temp-dir.ts";

const paths = { db: "/data/rein/rein.db", dataDir: "/data/rein", configDir: "/conf/rein" };
const errno = (code: string, path: string, syscall: string) => Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, path, syscall });

test("errno faults name the path, the cause and the folder variable to change", () => {
  expect(knownFault(errno("EROFS", "/data/rein/output", "mkdir"), paths)).toBe(
    "cannot create or open /data/rein/output: the file system is read-only (EROFS); remount it read-write, or set REIN_DATA_DIR to a writable folder",
  );
  expect(knownFault(errno("EACCES", "/conf/rein/config.json", "open"), paths)).toContain("fix its owner or mode, or set REIN_CONFIG_DIR");
  expect(knownFault(errno("ENOSPC", "/work/x", "write"), paths)).toBe("cannot write /work/x: no space left on the device (ENOSPC); free some space (df /work) and try again");
  expect(knownFault(new OutputError("stdout", "ENOSPC"), paths)).toContain("cannot write to stdout: no space left on the device (ENOSPC)");
});

test("a SQLite error from the machine is a fault; one from rein's own SQL stays a bug", () => {
  const dir = tempDir("rein-fault-");
  try {
    const db = new Database(join(dir.path, "x.db"));
    db.exec("CREATE TABLE t (id TEXT PRIMARY KEY)");
    db.exec("INSERT INTO t VALUES ('a')");
    let constraint: unknown;
    try {
      db.exec("INSERT INTO t VALUES ('a')");
    } catch (error) {
      constraint = error;
    }
    expect((constraint as { code: string }).code).toStartWith("SQLITE_CONSTRAINT");
    expect(knownFault(constraint, paths)).toBeUndefined();
    db.close();
  } finally {
    dir.remove();
  }
  const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
  expect(knownFault(busy, paths)).toContain("the session database /data/rein/rein.db is locked by another process");
  expect(knownFault(new TypeError("x is undefined"), paths)).toBeUndefined();
});
