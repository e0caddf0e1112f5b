import { describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { projectPaths, reinPaths } from "../../../src/config/paths.ts";

describe("reinPaths", () => {
  test("defaults to the XDG locations under HOME", () => {
    expect(reinPaths({ HOME: "/home/u" })).toEqual({
      configDir: "/home/u/.config/rein",
      dataDir: "/home/u/.local/share/rein",
      userConfig: "/home/u/.config/rein/config.json",
      userTools: "/home/u/.config/rein/tools",
      userInstructions: "/home/u/.config/rein/AGENTS.md",
      db: "/home/u/.local/share/rein/rein.db",
      outputDir: "/home/u/.local/share/rein/output",
    });
  });

  test("honours XDG_CONFIG_HOME and XDG_DATA_HOME", () => {
    const paths = reinPaths({ HOME: "/home/u", XDG_CONFIG_HOME: "/xdg/config", XDG_DATA_HOME: "/xdg/data" });
    expect(paths.userConfig).toBe("/xdg/config/rein/config.json");
    expect(paths.db).toBe("/xdg/data/rein/rein.db");
  });

  test("REIN_CONFIG_DIR and REIN_DATA_DIR win over XDG", () => {
    const paths = reinPaths({
      HOME: "/home/u",
      XDG_CONFIG_HOME: "/xdg/config",
      XDG_DATA_HOME: "/xdg/data",
      REIN_CONFIG_DIR: "/t/conf",
      REIN_DATA_DIR: "/t/data",
    });
    expect(paths.configDir).toBe("/t/conf");
    expect(paths.userTools).toBe("/t/conf/tools");
    expect(paths.userInstructions).toBe("/t/conf/AGENTS.md");
    expect(paths.dataDir).toBe("/t/data");
    expect(paths.outputDir).toBe("/t/data/output");
  });

  test("empty and relative XDG values are ignored, as the XDG spec asks", () => {
    const paths = reinPaths({ HOME: "/home/u", XDG_CONFIG_HOME: "relative", XDG_DATA_HOME: "", REIN_CONFIG_DIR: "" });
    expect(paths.configDir).toBe("/home/u/.config/rein");
    expect(paths.dataDir).toBe("/home/u/.local/share/rein");
  });

  test("falls back to the OS home directory without HOME", () => {
    expect(reinPaths({}).configDir).toBe(`${homedir()}/.config/rein`);
  });
});

test("projectPaths are inside .rein under the root", () => {
  expect(projectPaths("/p")).toEqual({ config: "/p/.rein/config.json", tools: "/p/.rein/tools" });
});
