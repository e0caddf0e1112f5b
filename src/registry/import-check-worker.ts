// Runs in a Worker: imports each tool file it is sent and says when the import settled. The file is
// imported here first so that one whose top level never finishes (`while (true) {}`) hangs this
// thread, which can be terminated, instead of rein's own. Load errors are not reported from here:
// the real import in rein's thread reports them with their position. The worker is kept between
// reloads: each request (`FILE?check=N`) is a fresh import, and the folder's modules are forgotten
// first so that a changed helper it imports is evaluated again too.
import { dirname } from "node:path";
import { registerToolModules } from "./virtual-modules.ts";

declare const self: Worker;

registerToolModules();
self.onmessage = async (event: MessageEvent<string>) => {
  const folder = dirname(event.data.replace(/\?check=\d+$/, ""));
  const cache = require.cache as Record<string, unknown>;
  for (const key of Object.keys(cache)) if (key.startsWith(folder)) delete cache[key];
  await import(event.data).catch(() => undefined);
  self.postMessage(event.data);
};
self.postMessage("ready");
