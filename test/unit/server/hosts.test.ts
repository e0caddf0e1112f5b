import { expect, test } from "bun:test";
import { networkInterfaces } from "node:os";
import { serverHosts } from "../../../src/server/hosts.ts";

test("a loopback bind answers to the loopback names and the configured ones, with the port", () => {
  expect(serverHosts("127.0.0.1", 4774, ["Rein.LAN"])).toEqual(["127.0.0.1:4774", "localhost:4774", "[::1]:4774", "rein.lan:4774"]);
});

test("a wildcard bind answers to every address of the machine, never to any Host", () => {
  const hosts = serverHosts("0.0.0.0", 8080, []);
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  for (const address of addresses.filter((a) => !a.includes(":"))) expect(hosts).toContain(`${address}:8080`);
  expect(hosts).not.toContain("0.0.0.0:8080");
  expect(hosts.every((h) => h.endsWith(":8080"))).toBe(true);
});

test("on port 80 the bare name counts too, as browsers leave the port out", () => {
  expect(serverHosts("10.0.0.5", 80, [])).toEqual(expect.arrayContaining(["10.0.0.5:80", "10.0.0.5", "localhost"]));
});
