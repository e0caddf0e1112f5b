// A cut tool output: the note names the saved file and a read offset, and following it works under
// print mode's policy (nobody can grant a permission) with the default rules.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import read from "../../../tools/read.ts";
import { askPolicy } from "../../../src/cli/print-mode.ts";
import { DEFAULT_RULES } from "../../../src/permission/modes.ts";
import { defineTool } from "../../../src/sdk.ts";
import { boundOutput } from "../../../src/session/bound-output.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import { sentResults, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const numbered = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`).join("\n");
const big = defineTool({ name: "big", description: "prints many lines", input: v.object({}), readOnly: true, run: async () => numbered });

test("the note on a cut output leads the model to read the omitted part of the saved file, allowed in print mode", async () => {
  const { session } = kit.create({ tools: [big, read], rules: [...DEFAULT_RULES, { permission: "big", pattern: "*", action: "allow" }], askPolicy: askPolicy("deny") });
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "big", input: {} }] },
    {
      respond: (body) => {
        const note = String(body.messages.at(-1).content[0].content);
        const [, path, offset] = /read tool \(path (\S+), offset (\d+)\)/.exec(note) ?? [];
        return { reply: [{ type: "tool_use", name: "read", input: { path, offset: Number(offset), limit: 2 } }] };
      },
    },
    { reply: [{ type: "text", text: "done" }] },
  );
  const result = await session.prompt("run it");
  expect(result.status).toBe("success");
  const cut = sentResults(kit.fake.requests[1])[0]!;
  expect(String(cut.content)).toContain("characters omitted");
  expect(String(cut.content)).not.toContain("sed -n");
  const followed = sentResults(kit.fake.requests[2])[0]!;
  expect(followed.is_error).toBeFalsy();
  const head = String(cut.content).split("\n\n[...")[0]!;
  const firstOmitted = head.split("\n").length + 1;
  expect(String(followed.content)).toContain(`line ${firstOmitted}`);
});

test("the saved output is readable through a symlinked data folder too", async () => {
  const real = join(kit.dir.path, "real-data");
  mkdirSync(real);
  const linked = join(kit.dir.path, "linked-data");
  symlinkSync(real, linked);
  const options = { ...kit.options({ tools: [big, read], rules: [...DEFAULT_RULES, { permission: "big", pattern: "*", action: "allow" as const }], askPolicy: askPolicy("deny") }) };
  options.outputDir = join(linked, "output");
  options.bound = (sessionId) => boundOutput(join(linked, "output"), sessionId);
  const work = join(kit.dir.path, "work"); // the data folder lies outside the workspace, as it does for real
  mkdirSync(work);
  options.expand = permissionEngine({ projectRoot: work, home: kit.dir.path, reinDirs: [] });
  const session = Session.create(work, options);
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "big", input: {} }] },
    {
      respond: (body) => {
        const [, path] = /read tool \(path (\S+), offset/.exec(String(body.messages.at(-1).content[0].content)) ?? [];
        return { reply: [{ type: "tool_use", name: "read", input: { path, offset: 1, limit: 1 } }] };
      },
    },
    { reply: [{ type: "text", text: "done" }] },
  );
  // The temp folder needs no approval: here it must not be the one the data folder is in.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = join(kit.dir.path, "elsewhere");
  try {
    expect((await session.prompt("run it")).status).toBe("success");
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  expect(sentResults(kit.fake.requests[2])[0]!.is_error).toBeFalsy();
});
