// The one line for each fault of the machine, from real failures where the machine can give them
// (a file in the way of a folder, a port in use, a database that is not one) and from errno-shaped
// errors where it cannot (a full disk, a failing one): what it says, and which remedy it names.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { KnownFault, knownFault, storeFolderFault } from "../../../src/app/known-fault.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const paths = { db: "/data/rein/rein.db", dataDir: "/data/rein", configDir: "/conf/rein" };
const errno = (code: string, path?: string, syscall?: string) => Object.assign(new Error(`${code}: ${syscall}`), { code, ...(path ? { path } : {}), ...(syscall ? { syscall } : {}) });
const caught = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
};

const dirs: TempDir[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
const temp = () => {
  const d = tempDir("rein-fault-");
  dirs.push(d);
  return d.path;
};

test("a file in the way of a folder rein makes: the last part (EEXIST) or one above it (ENOTDIR)", () => {
  const root = temp();
  writeFileSync(join(root, "file"), "x");
  const above = caught(() => mkdirSync(join(root, "file", "rein"), { recursive: true }));
  const at = caught(() => mkdirSync(join(root, "file"), { recursive: true }));
  const here = { db: join(root, "file", "rein.db"), dataDir: join(root, "file"), configDir: "/conf/rein" };
  expect(knownFault(above, here)).toBe(`cannot create or open ${join(root, "file", "rein")}: a part of the path is a file, not a folder (ENOTDIR); move that file out of the way, or set REIN_DATA_DIR to a writable folder`);
  expect(knownFault(at, here)).toBe(`cannot create or open ${join(root, "file")}: a file is where the folder should be (EEXIST); move that file out of the way, or set REIN_DATA_DIR to a writable folder`);
});

test("EEXIST from anything but mkdir stays a bug (an exclusive create of rein's own file)", () => {
  const root = temp();
  writeFileSync(join(root, "lock"), "x");
  const exclusive = caught(() => writeFileSync(join(root, "lock"), "y", { flag: "wx" }));
  expect((exclusive as { code: string }).code).toBe("EEXIST");
  expect(knownFault(exclusive, paths)).toBeUndefined();
});

test("a port in use names it and says to choose another", async () => {
  const first = createServer();
  await new Promise<void>((done) => first.listen(0, "127.0.0.1", done));
  const port = (first.address() as { port: number }).port;
  const second = createServer();
  const error = await new Promise<unknown>((done) => {
    second.once("error", done);
    second.listen(port, "127.0.0.1");
  });
  first.close();
  const line = knownFault(error, paths);
  expect(line).toStartWith("the address is already in use (");
  expect(line).toContain(String(port));
  expect(line).toEndWith("stop what listens there, or choose another port with --port N");
});

test("a file that is not a database: SQLite's NOTADB says the file is damaged and points at rein doctor", () => {
  const root = temp();
  const file = join(root, "rein.db");
  writeFileSync(file, "plain text, not SQLite ".repeat(200));
  const error = caught(() => new Database(file).query("SELECT 1 FROM sqlite_master").all());
  expect((error as { code: string }).code).toStartWith("SQLITE_NOTADB");
  expect(knownFault(error, { ...paths, db: file, dataDir: root })).toBe(`cannot use the session database ${file}: file is not a database; the file is damaged: rein doctor says what to do`);
});

test("other SQLite faults of the machine point at rein doctor; BUSY and LOCKED say who may hold it", () => {
  const ioerr = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR_WRITE" });
  expect(knownFault(ioerr, { ...paths, db: "/nonexistent/rein.db" })).toBe("cannot use the session database /nonexistent/rein.db: disk I/O error; run rein doctor");
  const locked = Object.assign(new Error("database table is locked"), { code: "SQLITE_LOCKED" });
  expect(knownFault(locked, paths)).toBe(
    "the session database /data/rein/rein.db is locked by another process (database table is locked); wait for it (another rein, or a tool holding it: fuser /data/rein/rein.db) and try again",
  );
  expect(knownFault(Object.assign(new Error("x"), { code: "SQLITE_MISUSE" }), paths)).toBeUndefined();
});

test("a database in a writable folder with space has no folder fault; a full disk is said as ENOSPC", () => {
  const root = temp();
  const db = join(root, "rein.db");
  expect(storeFolderFault(db, "unable to open database file")).toBeUndefined();
  expect(storeFolderFault(db, "database or disk is full", true)).toBe(
    `cannot use the session database ${db}: no space left on the device (ENOSPC; SQLite says "database or disk is full"); free some space (df ${root}) and try again`,
  );
  // a folder that does not exist is not the folder's fault: SQLite's own words are kept
  expect(storeFolderFault(join(root, "missing", "rein.db"), "unable to open database file")).toBeUndefined();
  const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  expect(knownFault(full, { ...paths, db })).toContain("no space left on the device (ENOSPC; SQLite says \"database or disk is full\")");
});

test("each errno names its remedy: space, the disk, the owner, and the folder variable to change", () => {
  expect(knownFault(errno("EDQUOT", "/data/rein/output/x", "write"), paths)).toBe("cannot write /data/rein/output/x: the disk quota is used up (EDQUOT); free some space (df /data/rein/output) and try again");
  expect(knownFault(errno("EIO", "/work/f", "write"), paths)).toBe("cannot write /work/f: an I/O error (a failing or disconnected disk?) (EIO); check the disk (dmesg), then try again");
  expect(knownFault(errno("EPERM", "/work/f", "open"), paths)).toBe("cannot create or open /work/f: the operation is not permitted (EPERM); fix its owner or mode, or work somewhere writable");
  expect(knownFault(errno("EROFS", "/conf/rein/tools", "mkdir"), paths)).toContain("remount it read-write, or set REIN_CONFIG_DIR to a writable folder");
  // a parent rein creates on the way to its own folder counts as its own
  expect(knownFault(errno("EACCES", "/data", "mkdir"), paths)).toContain("or set REIN_DATA_DIR to a writable folder");
  expect(knownFault(errno("ENOSPC"), paths)).toBe("cannot write a file: no space left on the device (ENOSPC); free some space and try again");
});

test("a KnownFault is its own message; anything without an errno code is a bug", () => {
  expect(knownFault(new KnownFault("the one line"), paths)).toBe("the one line");
  expect(knownFault(Object.assign(new Error("x"), { code: 42 }), paths)).toBeUndefined();
  expect(knownFault(errno("ENOENT", "/work/missing", "open"), paths)).toBeUndefined();
  expect(knownFault("a string thrown", paths)).toBeUndefined();
});
