// Wrong tokens slow their sender down: after three, each next check of that client waits its
// turn, one at a time, for a doubling delay, before the token is even compared; a right token
// waits its turn too (no timing oracle) and clears the record; other clients are not slowed.
import { expect, test } from "bun:test";
import { BASE_MS, delayAfter, FREE_FAILURES, MAX_MS, MAX_WAITING, TokenThrottle } from "../../../src/server/throttle.ts";
import { TOKEN, useServer } from "./server-kit.ts";

/** A clock whose sleeps wait until the test lets them go, recording how long each asked for. */
function gatedClock() {
  const asked: number[] = [];
  const held: (() => void)[] = [];
  return {
    asked,
    clock: { now: () => 0, sleep: (ms: number) => new Promise<void>((resolve) => (asked.push(ms), held.push(resolve))) },
    /** lets the sleeps asked so far end, and waits for what they unblock to run */
    release: async () => {
      await Bun.sleep(0);
      for (const go of held.splice(0)) go();
      await Bun.sleep(0);
    },
  };
}

test("the delay is free for three failures, then doubles from half a second up to 30 s", () => {
  expect([0, 1, 2].map(delayAfter)).toEqual([0, 0, 0]);
  expect([3, 4, 5, 6].map(delayAfter)).toEqual([BASE_MS, BASE_MS * 2, BASE_MS * 4, BASE_MS * 8]);
  expect(delayAfter(40)).toBe(MAX_MS);
});

test("checks after the free ones wait their turn one at a time, a right token too, which then clears the record", async () => {
  const gate = gatedClock();
  const throttle = new TokenThrottle(gate.clock);
  const compared: string[] = [];
  const check = (given: string) => throttle.check("10.0.0.9", () => (compared.push(given), given === "right"));
  for (let i = 0; i < FREE_FAILURES; i++) expect(await check(`wrong${i}`)).toEqual({ ok: false });
  const fourth = check("wrong3");
  const right = check("right");
  await gate.release(); // nothing slept yet: the fourth's wait starts now
  expect(compared).toEqual(["wrong0", "wrong1", "wrong2", "wrong3"]);
  expect(await fourth).toEqual({ ok: false });
  expect(gate.asked).toEqual([BASE_MS, BASE_MS * 2]); // the right token waits longer still, and is not compared yet
  expect(compared).not.toContain("right");
  await gate.release();
  expect(await right).toEqual({ ok: true });
  // Cleared: the next check is compared at once.
  expect(await check("wrong-again")).toEqual({ ok: false });
  expect(gate.asked).toHaveLength(2);
  // Another client was never slowed.
  expect(await throttle.check("10.0.0.10", () => false)).toEqual({ ok: false });
  expect(gate.asked).toHaveLength(2);
});

const gate = gatedClock();
const s = useServer({ clientOf: (r) => r.headers.get("x-client") ?? undefined, throttleClock: gate.clock });

test("30 wrong tokens sent at once to POST /login: three answered, 16 held unanswered, the rest refused with 429 unchecked", async () => {
  const login = (token: string, client = "192.0.2.1") =>
    s.call("POST", "/login", { body: `token=${token}`, headers: { authorization: "", origin: "http://localhost", "content-type": "application/x-www-form-urlencoded", "x-client": client } });
  const answered: number[] = [];
  const all = Array.from({ length: 30 }, (_, i) => login(`guess-${i}`).then((res) => (answered.push(res.status), res)));
  await Bun.sleep(0);
  expect(answered.filter((status) => status === 401)).toHaveLength(FREE_FAILURES);
  expect(answered.filter((status) => status === 429)).toHaveLength(30 - FREE_FAILURES - MAX_WAITING);
  expect(answered).toHaveLength(30 - MAX_WAITING);
  const busy = await login(TOKEN); // even the right token: not checked while 16 wait
  expect(busy.status).toBe(429);
  expect(busy.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(((await busy.json()) as { error: { code: string } }).error.code).toBe("too_many_requests");
  // Another client logs in at once.
  expect((await login(TOKEN, "192.0.2.2")).status).toBe(303);
  // The held ones are answered one at a time as their waits end.
  while (answered.length < 30) {
    const before = answered.length;
    await gate.release();
    expect(answered.length - before).toBeLessThanOrEqual(1);
  }
  await Promise.all(all);
  expect(answered.filter((status) => status === 401)).toHaveLength(FREE_FAILURES + MAX_WAITING);
  expect(gate.asked).toEqual(Array.from({ length: MAX_WAITING }, (_, i) => delayAfter(FREE_FAILURES + i)));
});
