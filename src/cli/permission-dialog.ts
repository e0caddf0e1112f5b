// The terminal's permission dialog: what the call touches and why it asks, then once / always
// (this session, the project or the user config) / reject / reject with a message.
import { isCancel, select, text as askText } from "@clack/prompts";
import chalk from "chalk";
import { projectPaths } from "../config/paths.ts";
import { saveAllowRules } from "../config/save-rules.ts";
import type { StampedEvent } from "../session/events.ts";
import type { Session } from "../session/session.ts";
import type { Context } from "./context.ts";

type AskEvent = Extract<StampedEvent, { type: "permission_ask" }>;
type Choice = "once" | "session" | "project" | "user" | "reject" | "message";

export async function permissionDialog(ctx: Context, session: Session, ask: AskEvent, signal?: AbortSignal): Promise<void> {
  const rules = ask.requests.flatMap((r) => r.always.map((pattern) => ({ permission: r.permission, pattern })));
  const shown = rules.map((r) => (r.pattern === "*" ? r.permission : `${r.permission}(${r.pattern})`)).join(", ");
  const what = ask.requests.map((r) => {
    const extra = r as { reason?: string; fixed?: { reason: string } };
    const why = extra.fixed?.reason ?? extra.reason ?? (r.opaque ? "cannot be checked statically" : undefined);
    return `${r.permission}: ${r.pattern}${why ? chalk.yellow(`  (${why})`) : ""}`;
  });
  const reason = ask.reason ? `\n${chalk.yellow(ask.reason)}` : "";
  const options: { value: Choice; label: string }[] = [{ value: "once", label: "Allow once" }];
  if (rules.length > 0) {
    options.push({ value: "session", label: `Allow always in this session: ${shown}` });
    // Project rules only apply in a trusted workspace, so they are only offered there.
    if (ctx.trusted) options.push({ value: "project", label: `Allow always in this project (.rein/config.json): ${shown}` });
    options.push({ value: "user", label: `Allow always for me (~/.config/rein/config.json): ${shown}` });
  }
  options.push({ value: "reject", label: "Reject" }, { value: "message", label: "Reject and tell the model why" });

  const choice = await select({ message: `${ask.tool} wants to:\n${what.join("\n")}${reason}`, options, ...(signal ? { signal } : {}) });
  if (signal?.aborted) return void process.stdout.write(chalk.dim("(answered elsewhere)\n"));
  if (isCancel(choice) || choice === "reject") return void session.reply(ask.id, "reject");
  if (choice === "message") {
    const message = await askText({ message: "Message to the model" });
    return void session.reply(ask.id, "reject", isCancel(message) ? undefined : message);
  }
  if (choice === "once") return void session.reply(ask.id, "once");
  if (choice !== "session") {
    const file = choice === "project" ? projectPaths(ctx.projectRoot).config : ctx.paths.userConfig;
    try {
      saveAllowRules(file, rules);
      process.stdout.write(chalk.dim(`saved to ${file}: ${shown}\n`));
    } catch (error) {
      process.stdout.write(chalk.red(`${(error as Error).message}; allowed for this session only\n`));
    }
  }
  session.reply(ask.id, "always");
}
