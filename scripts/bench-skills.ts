// The skill catalog's cost: the first request of `rein -p` with 20 skills installed, against the
// same request with none. Overhead per skill is what the catalog adds beyond the descriptions.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeServer } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { firstRequestChars } from "./bench-startup.ts";

const SKILLS = 20;


export async function skillCatalogFigures(bin: string, fake: FakeServer): Promise<{ base: number; withSkills: number; perSkill: number }> {
  const home = mkdtempSync(join(tmpdir(), "rein-bench-skills-"));
  try {
    const env = benchEnv(home, fake.url);
    const cwd = join(home, "work");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    const base = await firstRequestChars(bin, env, fake, cwd);
    let descriptions = 0;
    for (let i = 0; i < SKILLS; i++) {
      const name = `team-skill-${String(i + 1).padStart(2, "0")}`;
      const description = `Use when the user works on area ${i + 1} of the product: the conventions, commands and checks it needs.`;
      descriptions += description.length;
      mkdirSync(join(home, ".agents/skills", name), { recursive: true });
      writeFileSync(join(home, ".agents/skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nThe instructions for area ${i + 1}.\n`);
    }
    const withSkills = await firstRequestChars(bin, env, fake, cwd);
    return { base, withSkills, perSkill: (withSkills - base - descriptions) / SKILLS };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export function skillCatalogRows(f: Awaited<ReturnType<typeof skillCatalogFigures>>): Row[] {
  return [
    {
      figure: `skill catalog: characters per skill beyond its description (${SKILLS} skills)`,
      shown: `${f.perSkill.toFixed(0)} characters`,
      value: f.perSkill,
      target: { max: 150, text: "at most 150 characters" },
    },
    {
      // The figure is 8,000 + 3,000: the request without skills has its own row (8,000); this is the 3,000.
      figure: `first request with ${SKILLS} skills installed: what they add (system + tools JSON)`,
      shown: `${f.withSkills - f.base} characters (${f.withSkills} in all, ${f.base} without skills)`,
      value: f.withSkills - f.base,
      target: { max: 3_000, text: "at most 3,000 characters" },
    },
  ];
}
