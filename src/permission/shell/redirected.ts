// Redirected statements: their redirections (set up before the body, with the directory from before
// it) and here-docs, whose unquoted bodies run their substitutions and which can carry the rest of
// their line. Part of the walk (walk.ts).
import type { Node } from "web-tree-sitter";
import { fileRedirect } from "./redirects.ts";
import { childScope, conditional, type Scope } from "./scope.ts";
import { STATEMENTS, type Walker } from "./walk.ts";

/** What a here-doc leaves to run after the body: the rest of its line, piped or not. */
type Later = { node: Node; piped: boolean }[];

// Redirections are set up before the body runs, so they use the directory from before it. A here-doc
// can carry the rest of its line (`cat <<EOF | sh`, `cat <<EOF && rm x`): walked after the body.
// tree-sitter-bash hangs `a && b > f` off the whole list; bash redirects only b, so the redirect is
// resolved where the last element starts.
export function redirected(w: Walker, node: Node, scope: Scope): void {
  const later: Later = [];
  let body: Node | null = null;
  const redirects: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    if (node.fieldNameForChild(i) === "body") body = child;
    else redirects.push(child);
  }
  const setUp = () => {
    for (const r of redirects) redirect(w, r, scope, later);
  };
  if (body?.type === "list") w.list(body, scope, setUp);
  else {
    setUp();
    if (body) w.statement(body, scope);
  }
  for (const rest of later) {
    if (rest.piped) w.statement(rest.node, childScope(scope));
    else conditional(scope, () => w.statement(rest.node, scope));
  }
}

export function redirect(w: Walker, node: Node, scope: Scope, later: Later): void {
  switch (node.type) {
    case "file_redirect":
      return fileRedirect(w, node, scope);
    case "heredoc_redirect":
      return heredoc(w, node, scope, later);
    default:
      if (node.isNamed) w.scan(node, scope);
  }
}

// A here-doc can carry the rest of its line (`right`, a pipeline) and further redirects.
function heredoc(w: Walker, node: Node, scope: Scope, later: Later): void {
  let expands = true;
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    if (node.fieldNameForChild(i) === "right") later.push({ node: child, piped: false });
    else if (STATEMENTS.has(child.type)) later.push({ node: child, piped: true });
    else if (child.type.endsWith("_redirect")) redirect(w, child, scope, later);
    else if (child.type === "heredoc_start") expands = !/['"\\]/.test(child.text);
    else if (child.type === "heredoc_body") {
      if (expands) heredocBody(w, child, scope); // a quoted delimiter makes the body plain data
    }
    else if (child.isNamed) w.scan(child, scope);
  }
}

// An unquoted here-doc body runs its $(...) (parsed by tree-sitter) and its `...` (left as text by
// tree-sitter-bash 0.25: found here).
function heredocBody(w: Walker, node: Node, scope: Scope): void {
  w.scan(node, scope);
  w.backquotes(node.text, scope);
}
