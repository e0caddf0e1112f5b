// Writes "always" approvals into a config file's permissions.allow, keeping everything else in the
// file as it was. The file is replaced atomically; a file that is not valid JSON is left alone.
import { ConfigError } from "./config-error.ts";
import { readConfigObject, writeConfigObject } from "./config-object.ts";
import { formatRule, parseRule } from "./rule.ts";

export type AllowRule = { permission: string; pattern: string };

/** The rule's text; refused (ConfigError) when it would not load back as the same rule, so a saved rule always loads. */
export function ruleText(rule: AllowRule): string {
  const text = formatRule(rule);
  const back = parseRule(text, "allow");
  if (typeof back === "string" || back.permission !== rule.permission || back.pattern !== rule.pattern) {
    throw new ConfigError(`config error: the approval ${JSON.stringify(text)} cannot be saved as a rule (${typeof back === "string" ? back : "it would read back differently"}); it applies to this session only`);
  }
  return text;
}

/** Adds the rules to `permissions.allow` of the file (created if missing); returns the rule texts added. */
export function saveAllowRules(file: string, rules: readonly AllowRule[]): string[] {
  const config = readConfigObject(file);
  if (!config) throw new ConfigError(`config error in ${file}: not a JSON object, so the approval was not saved there; fix the file first`, { file });
  const permissions = (config.permissions ??= {}) as Record<string, unknown>;
  const allow = Array.isArray(permissions.allow) ? (permissions.allow as unknown[]) : [];
  const added = rules.map(ruleText).filter((text, i, all) => !allow.includes(text) && all.indexOf(text) === i);
  if (added.length === 0) return [];
  permissions.allow = [...allow, ...added];
  writeConfigObject(file, config);
  return added;
}
