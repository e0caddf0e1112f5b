// `"teammateMode": "tmux"`: a background worker runs as a rein process of its own in a tmux pane,
// for those who want to watch it, on the same session store. The lead makes the worker's session
// (linked as for an in-process worker); each of the worker's runs is `rein -p TEXT -r ID --agent A`
// in a new window (of the tmux session rein runs in, or of a detached `rein-LEAD` session, named on
// stderr), and its result is read back from the store when the process ends. Messages reach it
// through the store's mailbox at its turn boundaries, as they reach an in-process worker.
import type { ResultEvent } from "./session-options.ts";
import type { Store } from "./store.ts";
import type { WorkerSession } from "./team-worker.ts";

export type TmuxSettings = {
  /** how to run rein: the binary (or bun and the entry script) */
  command: readonly string[];
  /** the panes' environment: rein's own (the worker is rein, with its provider key) */
  env: Readonly<Record<string, string | undefined>>;
  trusted?: boolean;
  /** told once, when rein makes a tmux session of its own for the workers */
  say?: (line: string) => void;
};

type Spec = { id: string; cwd: string; agent: string; model: string; name: string; leadId: string };

export function tmuxWorker(settings: TmuxSettings, store: Store, spec: Spec): WorkerSession {
  let runs = 0;
  let stop: (() => Promise<void>) | undefined;
  // A stop asked while the window is still opening closes it as soon as it is there.
  let stopping = false;
  return {
    id: spec.id,
    subscribe: () => () => undefined,
    taintSources: () => [],
    abort: () => void ((stopping = true), stop?.()),
    async prompt(text) {
      stopping = false;
      const channel = `rein-${spec.id}-${++runs}`;
      const before = lastSeq(store, spec.id);
      const rein = [...settings.command, "-p", text, "-r", spec.id, "--agent", spec.agent, "-m", spec.model, ...(settings.trusted ? ["--trust"] : [])];
      // The pane stays open once the worker ended, until a key is pressed, so what it did can be read.
      const script = `${rein.map(quote).join(" ")}; printf '\\n[rein: worker ${spec.name} ended; press Enter to close]\\n'; tmux wait-for -S ${channel}; read -r _`;
      const pane = await openPane(settings, spec, ["sh", "-c", script]);
      if (typeof pane !== "string") return failed(spec, pane.error);
      const waiting = tmux(settings.env, ["wait-for", channel]);
      stop = async () => {
        await tmux(settings.env, ["kill-pane", "-t", pane]);
        await tmux(settings.env, ["wait-for", "-S", channel]);
      };
      if (stopping) void stop();
      await waiting;
      stop = undefined;
      const result = store.events(spec.id, before).findLast((e): e is ResultEvent => e.type === "result" && !e.parent_tool_use_id);
      return result ?? failed(spec, "its rein process in tmux ended without a result (stopped, or it could not start: see its pane)");
    },
  };
}

/** A new window for the worker: in the tmux session rein runs in, or in a detached one of the lead's. */
async function openPane(settings: TmuxSettings, spec: Spec, command: string[]): Promise<string | { error: string }> {
  const env = Object.entries(settings.env).flatMap(([key, value]) => (value === undefined || key === "TMUX" || key === "TMUX_PANE" ? [] : ["-e", `${key}=${value}`]));
  const common = ["-d", "-P", "-F", "#{pane_id}", "-n", spec.name, "-c", spec.cwd, ...env, ...command];
  let made: { code: number; out: string; err: string };
  if (settings.env.TMUX) made = await tmux(settings.env, ["new-window", ...common]);
  else {
    const session = `rein-${spec.leadId.slice(0, 16)}`;
    const exists = (await tmux(settings.env, ["has-session", "-t", `=${session}`])).code === 0;
    made = exists ? await tmux(settings.env, ["new-window", "-t", `=${session}:`, ...common]) : await tmux(settings.env, ["new-session", "-s", session, ...common]);
    if (!exists && made.code === 0) settings.say?.(`workers run in tmux: tmux attach -t ${session}`);
  }
  if (made.code !== 0) return { error: `tmux could not open a pane for it: ${made.err.trim().split("\n")[0] || `exit ${made.code}`}` };
  return made.out.trim();
}

async function tmux(env: Readonly<Record<string, string | undefined>>, args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const proc = Bun.spawn(["tmux", ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: definedOnly(env) });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, out, err };
  } catch (error) {
    return { code: 127, out: "", err: error instanceof Error ? error.message : String(error) };
  }
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function lastSeq(store: Store, id: string): number {
  return store.events(id).at(-1)?.seq ?? 0;
}

function quote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function failed(spec: Spec, error: string): ResultEvent {
  return {
    type: "result",
    status: "error",
    text: "",
    error,
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    cost_usd: 0,
    turns: 0,
    duration_ms: 0,
    model: spec.model,
    session_id: spec.id,
    seq: 0,
  } as ResultEvent;
}
