// Runs in a Worker: imports each tool file it is sent and says when the import settled. The file is
// imported here first so that one whose top level never finishes (`while (true) {}`) hangs this
// thread, which can be terminated, instead of rein's own. Load errors are not reported from here:
// the real import in rein's thread reports them with their position.
import { registerToolModules } from "./virtual-modules.ts";

declare const self: Worker;

registerToolModules();
self.onmessage = async (event: MessageEvent<string>) => {
  await import(event.data).catch(() => undefined);
  self.postMessage(event.data);
};
self.postMessage("ready");
