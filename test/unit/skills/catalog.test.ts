import { expect, test } from "bun:test";
import { catalogBudget, skillCatalog } from "../../../src/skills/catalog.ts";
import type { Skill } from "../../../src/skills/skill.ts";

const skill = (name: string, description: string, modelInvocable = true): Skill => ({
  name,
  description,
  file: `/s/${name}/SKILL.md`,
  dir: `/s/${name}`,
  scope: "user",
  root: "/s",
  body: "",
  allowedTools: [],
  modelInvocable,
  userInvocable: true,
});

test("the budget is 1% of the window in characters (4 a token), at most 8,000", () => {
  expect(catalogBudget(200_000)).toBe(8_000);
  expect(catalogBudget(1_000_000)).toBe(8_000);
  expect(catalogBudget(32_000)).toBe(1_280);
});

test("one line per skill the model may load; past the budget the rest are named without descriptions", () => {
  const skills = [skill("alpha", "First\nskill"), skill("beta", "x".repeat(300)), skill("gamma", "Third"), skill("hidden", "Not for the model", false)];
  const text = skillCatalog(skills, 250);
  const lines = text.split("\n");
  expect(lines.slice(1)).toEqual(["- alpha: First skill", "- gamma: Third", "More skills (descriptions left out for space; load one by name to read it): beta"]);
  expect(text).not.toContain("hidden");
  expect(text.length).toBeLessThanOrEqual(250 + 100);
  expect(skillCatalog(skills, 250)).toBe(text);
  expect(skillCatalog([skill("hidden", "x", false)], 250)).toBe("");
});
