// A cut tool output: the note names the saved file and a read offset, and following it works under
// print mode's policy (nobody can grant a permission) with the default rules.
import { beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import read from "../../../tools/read.ts";
import { askPolicy } from "../../../src/cli/print-mode.ts";
import { DEFAULT_RULES } from "../../../src/permission/modes.ts";
import { defineTool } from "../../../src/sdk.ts";
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
