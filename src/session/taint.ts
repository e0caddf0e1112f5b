// A session's taint: once content that can steer the model (a web page, an untrusted MCP server's
// answer, an untrusted repository's instructions) is in the conversation, the calls that could
// carry data out or plant code for later ask a person, whatever the rules allow (a deny still
// denies). Sources are stored as `taint` events when they arrive, so `-c`, `-r` and forks keep
// them; a person can clear one (`taint_cleared`). Nothing is read from the store until the first
// permission check of a session that has one.
import type { PermissionRequest } from "../permission/evaluate.ts";
import { provenanceOf, taints, type Provenance, type ProvenanceContext, type ProvenanceKind } from "../permission/provenance.ts";
import { sinkReason } from "../permission/sinks.ts";

export type TaintSource = { kind: ProvenanceKind; source: string; turn: number };
export type StoredTaint = { sources: TaintSource[]; cleared: string[] };

export type TaintContext = ProvenanceContext & { reinDirs: readonly string[] };

export class SessionTaint {
  private sources: TaintSource[] | undefined;
  private cleared = new Set<string>();

  constructor(
    private readonly ctx: TaintContext,
    private readonly stored: () => StoredTaint,
    /** content the session starts with that can steer (an untrusted repository's instruction files) */
    private readonly initial: readonly TaintSource[] = [],
  ) {}

  private all(): TaintSource[] {
    if (!this.sources) {
      const { sources, cleared } = this.stored();
      this.sources = [...this.initial, ...sources];
      this.cleared = new Set(cleared);
    }
    return this.sources;
  }

  /** What a finished call's result is, and the new taint source it brings (to be stored), if any. */
  observe(tool: string, input: unknown, metadata: Record<string, unknown> | undefined, isError: boolean, turn: number): { provenance: Provenance; added?: TaintSource } {
    const provenance = provenanceOf(tool, input, metadata, this.ctx);
    if (isError && provenance.kind === "web" && !metadata?.url) return { provenance }; // nothing was fetched
    if (!taints(provenance)) return { provenance };
    return { provenance, ...(this.add({ kind: provenance.kind, source: provenance.source, turn }) ? { added: { kind: provenance.kind, source: provenance.source, turn } } : {}) };
  }

  /** Adds a source (a subagent's, say); false when it is known already. */
  add(source: TaintSource): boolean {
    const all = this.all();
    if (all.some((s) => s.source === source.source && s.kind === source.kind)) return false;
    all.push(source);
    this.cleared.delete(source.source);
    return true;
  }

  /** The sources in force: not cleared by a person. */
  active(): TaintSource[] {
    return this.all().filter((s) => !this.cleared.has(s.source));
  }

  /** A person read it and trusts it: it no longer taints the session. False when no such source is in force. */
  clear(source: string): boolean {
    if (!this.active().some((s) => s.source === source)) return false;
    this.cleared.add(source);
    return true;
  }

  /** Why these requests must ask a person in this session, naming the content; undefined when they need not. */
  gate(requests: readonly PermissionRequest[]): string | undefined {
    const active = this.active();
    if (!active.length) return undefined;
    const fetchedHosts = new Set(this.all().flatMap((s) => (s.kind === "web" ? [URL.parse(s.source)?.host ?? ""] : [])));
    const sink = sinkReason(requests, { workspace: this.ctx.workspace, home: this.ctx.home, reinDirs: this.ctx.reinDirs, fetchedHosts });
    if (!sink) return undefined;
    const cause = active.at(-1)!;
    const more = active.length > 1 ? ` and ${active.length - 1} more` : "";
    return `this session read ${describe(cause)}${more}; ${sink}`;
  }
}

function describe(s: TaintSource): string {
  const when = s.turn > 0 ? ` (turn ${s.turn})` : "";
  if (s.kind === "mcp") return `what the MCP server ${s.source.slice(4)} returned${when}`;
  if (s.kind === "untrusted-repo") return `${s.source}${when}`;
  return `${s.source}${when}`;
}
