// Where a tool result came from, for the taint rules (taint.ts): `workspace` (files inside the
// workspace, local commands), `outside` (files outside it), `web` (webfetch, websearch: the URL or
// the query), `mcp` (an MCP server's answer, unless its entry says `"trusted": true`) and
// `untrusted-repo` (instruction files, skills and commands of a workspace that is not trusted).
// Only web, mcp and untrusted-repo content can steer: it taints the session.
import { isAbsolute, relative, resolve } from "node:path";

export type ProvenanceKind = "workspace" | "outside" | "web" | "mcp" | "untrusted-repo";
export type Provenance = { kind: ProvenanceKind; source: string };

export type ProvenanceContext = { cwd: string; workspace: string; home: string; trustedMcp: (server: string) => boolean };

const FILE_TOOLS = new Set(["read", "glob", "grep", "list", "lsp"]);

export function provenanceOf(tool: string, input: unknown, metadata: Record<string, unknown> | undefined, ctx: ProvenanceContext): Provenance {
  const field = (name: string) => (input && typeof input === "object" ? (input as Record<string, unknown>)[name] : undefined);
  if (tool === "webfetch") return { kind: "web", source: String(metadata?.url ?? field("url") ?? "a web page") };
  if (tool === "websearch") return { kind: "web", source: `a web search for "${String(field("query") ?? "")}"` };
  const mcp = /^mcp__(.+?)__/.exec(tool);
  if (mcp) return ctx.trustedMcp(mcp[1]!) ? { kind: "workspace", source: `mcp:${mcp[1]}` } : { kind: "mcp", source: `mcp:${mcp[1]}` };
  if (tool === "mcp_resources") {
    const server = String(field("server") ?? "");
    return server && ctx.trustedMcp(server) ? { kind: "workspace", source: `mcp:${server}` } : { kind: "mcp", source: `mcp:${server || "a server"}` };
  }
  if (FILE_TOOLS.has(tool)) {
    const path = field("path") ?? field("file_path");
    if (typeof path === "string" && path) {
      const expanded = path === "~" || path.startsWith("~/") ? `${ctx.home}${path.slice(1)}` : path;
      const file = isAbsolute(expanded) ? resolve(expanded) : resolve(ctx.cwd, expanded);
      if (!inside(file, ctx.workspace)) return { kind: "outside", source: file };
      return { kind: "workspace", source: file };
    }
  }
  return { kind: "workspace", source: tool };
}

/** Content that can steer the model: a session holding it is tainted. */
export function taints(p: Provenance): boolean {
  return p.kind === "web" || p.kind === "mcp" || p.kind === "untrusted-repo";
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
