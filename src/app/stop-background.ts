// At exit: the commands the model left running on purpose (bash `background: true`) are stopped,
// and the user is told which.
import { stopBackground } from "./factory.ts";

export async function stopBackgroundCommands(warn: (message: string) => void): Promise<void> {
  for (const { command, log } of await stopBackground()) warn(`stopped a command left running in the background: ${command} (its output: ${log})`);
}
