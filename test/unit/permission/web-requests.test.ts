// webfetch's address policy: a host is judged by the addresses it resolves to (metadata denied;
// loopback, link-local and private ranges ask in every mode unless a rule names the host), and the
// addresses judged are the ones webfetch connects to. Only 127.0.0.1 is ever connected to.
import { afterAll, expect, test } from "bun:test";
import * as v from "valibot";
import { evaluate, type Rule } from "../../../src/permission/evaluate.ts";
import { modeRules } from "../../../src/permission/modes.ts";
import { webRequest } from "../../../src/permission/web-requests.ts";
import { addressKind, pinAddresses, pinnedAddresses } from "../../../src/sdk/web-address.ts";
import webfetch from "../../../tools/webfetch.ts";
import { toolContext } from "../../support/tool-context.ts";

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => new Response(`served ${r.headers.get("host")}`, { headers: { "content-type": "text/plain" } }) });
afterAll(() => server.stop(true));
const PORT = server.port;

const request = (url: string) => ({ permission: "webfetch", pattern: url, always: [`${new URL(url).origin}/*`] });
const allow = (pattern: string): Rule => ({ permission: "webfetch", pattern, action: "allow" });

test("addresses: metadata, private ranges (v4, v6, v4 inside v6) and public ones", () => {
  const kinds = (list: string[]) => list.map((a) => addressKind(a));
  expect(kinds(["169.254.169.254", "fd00:ec2::254", "[fd00:ec2::254]", "::ffff:169.254.169.254", "100.100.100.200"])).toEqual(Array(5).fill("metadata"));
  const privates = ["127.0.0.1", "127.8.9.1", "0.0.0.0", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.1.1", "100.64.0.1", "::1", "::", "fe80::1", "fd12::1", "fc00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::a00:1", "2002:c0a8:101::1", "224.0.0.1"];
  expect(kinds(privates)).toEqual(Array(privates.length).fill("private"));
  expect(kinds(["8.8.8.8", "172.32.0.1", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])).toEqual(Array(5).fill("public"));
  expect(addressKind("example.com")).toBeUndefined();
});

test("in auto mode a loopback URL asks, a metadata one is denied; a rule naming the host allows it, a bare or wildcard rule does not", async () => {
  const auto = modeRules("auto");
  const url = `http://127.0.0.1:${PORT}/x`;
  const local = await webRequest(request(url));
  expect(evaluate([local], auto).action).toBe("ask");
  expect(evaluate([local], auto).requests[0]!.reason).toContain("127.0.0.1 is a loopback, link-local or private address");
  expect(evaluate([local], [...auto, allow("*")]).action).toBe("ask");
  expect(evaluate([local], [...auto, allow("http://*")]).action).toBe("ask");
  expect(evaluate([local], [...auto, allow(`http://127.0.0.1:${PORT}/*`)]).action).toBe("allow");
  expect(evaluate([local], [...auto, allow(`http://127.0.0.1:1/*`)]).action).toBe("ask"); // another port is another origin
  // An "always" given in the dialog saves the origin: that approval allows it too.
  expect(evaluate([local], auto, [allow(local.always[0]!)]).action).toBe("allow");

  for (const metadata of ["http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/latest/"]) {
    const decided = evaluate([await webRequest(request(metadata))], [...auto, allow(metadata)]);
    expect(decided.action).toBe("deny");
    expect(decided.requests[0]!.reason).toContain("cloud metadata address");
  }
  // Names count by what they resolve to: localhost, and a decimal spelling of 127.0.0.1.
  for (const name of [`http://localhost:${PORT}/`, `http://app.localhost:${PORT}/`, "http://2130706433/"]) {
    expect(evaluate([await webRequest(request(name))], auto).action).toBe("ask");
  }
});

test("webfetch connects to the address the check judged, not to what the name says later (DNS rebinding)", async () => {
  const ctx = toolContext(import.meta.dir);
  const run = async (url: string) => {
    const result = await webfetch.run(v.parse(webfetch.input, { url }), ctx);
    return typeof result === "string" ? result : result.output;
  };
  // The check judged rebind.test to be 127.0.0.1: the fetch goes there, with the name as Host.
  pinAddresses("rebind.test", ["127.0.0.1"]);
  expect(await run(`http://rebind.test:${PORT}/page`)).toContain(`served rebind.test:${PORT}`);
  // The check could not resolve it: no connection at all.
  pinAddresses("gone.test", []);
  expect(await run(`http://gone.test:${PORT}/page`)).toContain("gone.test did not resolve to an address");
  // The engine pins what it judged.
  await webRequest(request(`http://localhost:${PORT}/`));
  expect(pinnedAddresses("LOCALHOST")).toEqual(["127.0.0.1", "::1"]);
});
