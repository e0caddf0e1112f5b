// rein plugin install on a terminal (tmux, the compiled binary): it shows what the plugin runs and
// asks [y/N]; y installs and enables it, anything else installs nothing.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const KIT = resolve(import.meta.dir, "../fixtures/plugins/kit");
const suite = terminalSuite("terminal-plugins");

describe.skipIf(!hasTmux)("rein plugin install asks on a terminal", () => {
  test("y installs and enables the plugin after showing what it runs", async () => {
    const { pane, data } = await suite.start({ name: "yes", args: `plugin install ${KIT}`, ready: "[y/N]" });
    const asked = pane.screen({ joined: true });
    expect(asked).toContain("MCP server where: bun ${CLAUDE_PLUGIN_ROOT}/servers/where.ts");
    expect(asked).toContain("Install and enable kit 1.0.0? [y/N]");
    pane.keys("y", "Enter");
    await pane.until("EXIT=0");
    expect(existsSync(join(data, "plugins/cache/kit/1.0.0/.claude-plugin/plugin.json"))).toBe(true);
    expect(JSON.parse(readFileSync(join(suite.dir.path, "yes-config/config.json"), "utf8"))).toEqual({ enabledPlugins: { kit: true } });
  }, 30_000);

  test("Enter alone (No) installs nothing", async () => {
    const { pane, data } = await suite.start({ name: "no", args: `plugin install ${KIT}`, ready: "[y/N]" });
    pane.keys("Enter");
    const done = await pane.until("EXIT=1");
    expect(done).toContain("nothing was installed");
    expect(existsSync(join(data, "plugins/cache"))).toBe(false);
  }, 30_000);
});
