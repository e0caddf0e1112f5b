// PreCompact may block a compaction; PostCompact hears its summary.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useKit } from "../../support/session-kit.ts";
import { hookedSession, hooksOf, say, script } from "./hook-kit.ts";

const kit = useKit();
const long = (question: string) => `${question}\n${"z".repeat(2_400)}`;

test("a PreCompact hook that exits 2 keeps the conversation as it was; PostCompact gets the summary of one that ran", async () => {
  const blocker = script(kit(), `echo "not now" >&2; exit 2`);
  const blocked = hookedSession(kit(), hooksOf(["PreCompact", "manual", blocker]), { setup: { contextWindow: 20_000 } });
  kit().fake.script(say("First answer."), say("Second answer."));
  await blocked.session.prompt(long("first question"));
  await blocked.session.prompt(long("second question"));
  const before = [...blocked.session.history()];

  const outcome = await blocked.session.compact();

  expect(outcome.type).not.toBe("compacted");
  expect(blocked.session.history()).toEqual(before);
  expect(kit().fake.requests).toHaveLength(2);

  kit().fake.reset();
  const heard = join(kit().dir.path, "post-compact.json");
  const ran = hookedSession(kit(), hooksOf(["PostCompact", "manual", `cat > ${heard}`]), { setup: { contextWindow: 20_000 } });
  kit().fake.script(say("First answer."), say("Second answer."), say("They asked two questions."));
  await ran.session.prompt(long("first question"));
  await ran.session.prompt(long("second question"));

  expect((await ran.session.compact()).type).toBe("compacted");
  expect(JSON.parse(readFileSync(heard, "utf8"))).toMatchObject({ hook_event_name: "PostCompact", trigger: "manual", compact_summary: "They asked two questions." });
});
