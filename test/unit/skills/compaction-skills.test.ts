// A loaded skill survives compaction: a summary attaches its text again (the latest load of each),
// and pruning old tool results leaves a skill's result alone.
import { afterAll, beforeEach, expect, test } from "bun:test";
import type { Message, TextBlock } from "../../../src/agent/types.ts";
import { pruneResults } from "../../../src/session/compacted-view.ts";
import { skillsToAttach } from "../../../src/skills/loaded-skills.ts";
import { skillTool } from "../../../src/skills/skill-tool.ts";
import type { Skill } from "../../../src/skills/skill.ts";
import { sentMessages, type Kit, useKit } from "../../support/session-kit.ts";
import { tempDir } from "../../support/temp-dir.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const dir = tempDir("rein-skill-compact-");
afterAll(() => dir.remove());
const skill: Skill = {
  name: "house-style",
  description: "How we write code",
  file: `${dir.path}/SKILL.md`,
  dir: dir.path,
  scope: "user",
  root: dir.path,
  body: `Always use tabs. ${"Rule. ".repeat(800)}End of the house style.`,
  allowedTools: [],
  modelInvocable: true,
  userInvocable: true,
};

test("after a summary the loaded skill is attached again, whole, before the conversation goes on", async () => {
  const { session } = kit.create({ contextWindow: 200_000, tools: [skillTool([skill], () => {})] });
  kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_01Skill", name: "skill", input: { name: "house-style" } }] }, { reply: [{ type: "text", text: "Loaded." }] });
  expect((await session.prompt(`Restyle this file.\n${"code line\n".repeat(1500)}`)).status).toBe("success");

  kit.fake.script({ reply: [{ type: "text", text: "The user asked for a restyle; the house style was loaded." }] });
  const outcome = await session.compact();
  expect(outcome.type).toBe("compacted");

  kit.fake.script({ reply: [{ type: "text", text: "ok" }] });
  await session.prompt("go on");
  const head = (sentMessages(kit.fake.requests.at(-1))[0]!.content[0] as TextBlock).text;
  expect(head).toStartWith("[summary of the earlier conversation]\nThe user asked for a restyle");
  expect(head).toContain(`[skills loaded earlier in this conversation, attached again]\n<skill name="house-style" dir="${dir.path}">\nAlways use tabs.`);
  expect(head).toContain("End of the house style.\n</skill>");
});

test("pruning replaces old tool results but keeps a skill's; the latest load of each skill is the one attached", () => {
  const results: Message = {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "a", content: '<skill name="one" dir="/s/one">\nfirst version\n</skill>' },
      { type: "tool_result", tool_use_id: "b", content: "a long listing" },
    ],
  };
  const pruned = pruneResults(results).content as { content: string }[];
  expect(pruned[0]!.content).toContain("first version");
  expect(pruned[1]!.content).not.toBe("a long listing");

  const later: Message = { role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: [{ type: "text", text: '<skill name="one" dir="/s/one">\nsecond version\n</skill>' }] }] };
  const attached = skillsToAttach([results, later]);
  expect(attached).toContain("second version");
  expect(attached).not.toContain("first version");
  expect(skillsToAttach([{ role: "user", content: [{ type: "text", text: "no skills" }] }])).toBe("");
});
