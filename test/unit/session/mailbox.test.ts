// The mailbox in the session store: messages come out in the order they were posted, each once,
// even when two processes take from one mailbox at the same time; what was posted survives the
// poster's process.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { post, take, waiting } from "../../../src/session/mailbox.ts";
import { Store } from "../../../src/session/store.ts";
import { tempDir } from "../../support/temp-dir.ts";

const MAILBOX = join(import.meta.dir, "../../../src/session/mailbox.ts");
const STORE = join(import.meta.dir, "../../../src/session/store.ts");

test("messages come out in the order they were posted, each once", () => {
  const dir = tempDir("rein-mail-");
  const { store } = Store.open(join(dir.path, "rein.db"));
  for (let i = 0; i < 20; i++) post(store.db, i % 2 ? "s_b" : "s_a", "lead", `m${i}`);
  expect(waiting(store.db, "s_a")).toBe(10);
  expect(take(store.db, "s_a").map((m) => m.body)).toEqual(["m0", "m2", "m4", "m6", "m8", "m10", "m12", "m14", "m16", "m18"]);
  expect(take(store.db, "s_a")).toEqual([]);
  expect(waiting(store.db, "s_a")).toBe(0);
  post(store.db, "s_a", "w1", "late");
  expect(take(store.db, "s_a").map((m) => [m.sender, m.body])).toEqual([["w1", "late"]]);
  expect(take(store.db, "s_b")).toHaveLength(10);
  store.close();
  dir.remove();
});

test("a message posted by a process that then dies is still there; two processes taking at once never share one", async () => {
  const dir = tempDir("rein-mail-");
  const path = join(dir.path, "rein.db");
  Store.open(path).store.close();
  // the poster: posts 400 messages and is killed without closing anything
  const poster = Bun.spawn(["bun", "-e", `const { Store } = await import(${JSON.stringify(STORE)}); const { post } = await import(${JSON.stringify(MAILBOX)}); const { store } = Store.open(${JSON.stringify(path)}); for (let i = 0; i < 400; i++) post(store.db, "s_x", "w", "m" + i); process.kill(process.pid, "SIGKILL");`], { stderr: "pipe" });
  await poster.exited;
  const taker = () =>
    Bun.spawn(["bun", "-e", `const { Store } = await import(${JSON.stringify(STORE)}); const { take } = await import(${JSON.stringify(MAILBOX)}); const { store } = Store.open(${JSON.stringify(path)}); const got = []; const end = Date.now() + 1500; while (Date.now() < end) got.push(...take(store.db, "s_x").map((m) => m.body)); console.log(JSON.stringify(got));`], { stdout: "pipe", stderr: "pipe" });
  const { store } = Store.open(path);
  expect(take(store.db, "s_x").length).toBe(400); // all of them survived the poster
  const refill = async () => {
    await Bun.sleep(300);
    for (let i = 0; i < 300; i++) {
      post(store.db, "s_x", "w", `n${i}`);
      if (i % 30 === 0) await Bun.sleep(20);
    }
  };
  const a = taker();
  const b = taker();
  await refill();
  const [outA, outB] = await Promise.all([new Response(a.stdout).text(), new Response(b.stdout).text()]);
  const rest = take(store.db, "s_x").map((m) => m.body);
  const got = [...JSON.parse(outA), ...JSON.parse(outB), ...rest] as string[];
  expect(got.length).toBe(300);
  expect(new Set(got).size).toBe(300);
  // each taker saw its share in posting order
  for (const share of [JSON.parse(outA), JSON.parse(outB)] as string[][]) {
    const numbers = share.map((m) => Number(m.slice(1)));
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
  }
  store.close();
  dir.remove();
});
