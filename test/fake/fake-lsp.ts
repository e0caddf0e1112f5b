// A language server of our own for tests, over stdio with vscode-jsonrpc: answers initialize,
// publishes one error per line containing "BAD" when a document opens or changes. Modes (argv[2]):
// "ok"; "crash" exits (code 3) on the first didChange; "silent" never publishes; "pull" offers
// textDocument/diagnostic and publishes nothing; "deps" also publishes, for every other open file,
// an error while the changed file holds "BAD"; "config" publishes the answer to
// workspace/configuration as its one diagnostic; "noinit" never answers initialize; "save" asks for
// didSave and publishes only then; "pullfail" offers textDocument/diagnostic but fails it; "probe"
// publishes what it could do to the files named by PROBE_WRITE and PROBE_READ (for the sandbox).
// The language features read the open documents' words: definition is a word's first occurrence
// ("links" mode answers with LocationLinks), references every occurrence in the open files, hover
// the word (THROW fails the request, EMPTY has none, HANG is never answered, DIE ends the server
// with code 5), symbols the lines `fn NAME` with their `let NAME` children.
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

type Position = { line: number; character: number };
const mode = process.argv[2] ?? "ok";
const c = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const docs = new Map<string, { version: number; text: string }>();
const pulls = mode === "pull" || mode === "pullfail";
const sync = mode === "save" ? { openClose: true, change: 1, save: { includeText: true } } : 1;
c.onRequest("initialize", () => (mode === "noinit" ? new Promise(() => {}) : { capabilities: { textDocumentSync: sync, ...(pulls ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}) } }));
c.onRequest("shutdown", () => null);
c.onNotification("exit", () => process.exit(0));

const bad = (text: string) =>
  text.split("\n").flatMap((line, i) => (line.includes("BAD") ? [{ range: { start: { line: i, character: line.indexOf("BAD") }, end: { line: i, character: line.indexOf("BAD") + 3 } }, severity: 1, code: "F1", source: "fake", message: "BAD is not allowed" }] : []));
const publish = async (uri: string, version: number, text: string) => {
  docs.set(uri, { version, text });
  if (mode === "silent" || mode === "pull" || mode === "save") return;
  if (mode === "probe") {
    const { readFileSync, writeFileSync } = await import("node:fs");
    const attempt = (run: () => string) => {
      try {
        return run();
      } catch (error) {
        return `failed: ${(error as { code?: string }).code ?? String(error)}`;
      }
    };
    const wrote = attempt(() => (writeFileSync(process.env.PROBE_WRITE!, "x"), "wrote"));
    const read = attempt(() => JSON.stringify(readFileSync(process.env.PROBE_READ!, "utf8")));
    void c.sendNotification("textDocument/publishDiagnostics", { uri, version, diagnostics: [{ range: { start: { line: 0, character: 0 } }, severity: 1, message: `write ${wrote}; read ${read}; pid ${process.pid}` }] });
    return;
  }
  if (mode === "config") {
    const [settings] = await c.sendRequest<unknown[]>("workspace/configuration", { items: [{ section: "fake" }] });
    void c.sendNotification("textDocument/publishDiagnostics", { uri, version, diagnostics: [{ range: { start: { line: 0, character: 0 } }, severity: 1, message: `settings ${JSON.stringify(settings)}` }] });
    return;
  }
  void c.sendNotification("textDocument/publishDiagnostics", { uri, version, diagnostics: bad(text) });
  if (mode !== "deps") return;
  for (const [other, doc] of docs) {
    if (other === uri) continue;
    const broken = text.includes("BAD") ? [{ range: { start: { line: 0, character: 0 } }, severity: 1, code: "D1", message: `depends on ${uri.split("/").pop()}, which is broken` }] : [];
    void c.sendNotification("textDocument/publishDiagnostics", { uri: other, version: doc.version, diagnostics: [...bad(doc.text), ...broken] });
  }
};
c.onNotification("textDocument/didOpen", (p: { textDocument: { uri: string; version: number; text: string } }) => publish(p.textDocument.uri, p.textDocument.version, p.textDocument.text));
c.onNotification("textDocument/didChange", (p: { textDocument: { uri: string; version: number }; contentChanges: { text: string }[] }) => {
  if (mode === "crash") process.exit(3);
  return publish(p.textDocument.uri, p.textDocument.version, p.contentChanges.at(-1)?.text ?? "");
});
c.onRequest("textDocument/diagnostic", (p: { textDocument: { uri: string } }) => {
  if (mode === "pullfail") throw new ResponseError(-32603, "pulling is broken");
  return { kind: "full", items: bad(docs.get(p.textDocument.uri)?.text ?? "") };
});
c.onNotification("textDocument/didSave", (p: { textDocument: { uri: string }; text?: string }) => {
  const doc = docs.get(p.textDocument.uri);
  const diagnostics = [...bad(p.text ?? ""), { range: { start: { line: 0, character: 0 } }, severity: 1, message: `saved with its text: ${p.text !== undefined}` }];
  void c.sendNotification("textDocument/publishDiagnostics", { uri: p.textDocument.uri, version: doc?.version, diagnostics });
});

function wordAt(uri: string, at: Position): string {
  const line = docs.get(uri)?.text.split("\n")[at.line] ?? "";
  const starts = [...line.matchAll(/\w+/g)];
  return starts.find((m) => m.index! <= at.character && at.character <= m.index! + m[0].length)?.[0] ?? "";
}
function occurrences(word: string, uris: Iterable<string>) {
  const found: { uri: string; range: { start: Position; end: Position } }[] = [];
  for (const uri of uris) {
    docs.get(uri)!.text.split("\n").forEach((line, i) => {
      for (const m of line.matchAll(new RegExp(`\\b${word}\\b`, "g"))) found.push({ uri, range: { start: { line: i, character: m.index! }, end: { line: i, character: m.index! + word.length } } });
    });
  }
  return found;
}
c.onRequest("textDocument/definition", (p: { textDocument: { uri: string }; position: Position }): unknown => {
  const word = wordAt(p.textDocument.uri, p.position);
  const first = word ? occurrences(word, [p.textDocument.uri])[0] : undefined;
  if (!first) return null;
  return mode === "links" ? [{ targetUri: first.uri, targetRange: first.range, targetSelectionRange: first.range }] : first;
});
c.onRequest("textDocument/references", (p: { textDocument: { uri: string }; position: Position }) => {
  const word = wordAt(p.textDocument.uri, p.position);
  return word ? occurrences(word, docs.keys()) : [];
});
c.onRequest("textDocument/hover", (p: { textDocument: { uri: string }; position: Position }) => {
  const word = wordAt(p.textDocument.uri, p.position);
  if (word === "THROW") throw new ResponseError(-32603, "hover failed on purpose");
  if (word === "HANG") return new Promise(() => {});
  if (word === "DIE") process.exit(5);
  if (!word || word === "EMPTY") return null;
  return { contents: [`the word ${word}`, { language: "x", value: `${word}: thing` }] };
});
function symbolsOf(uri: string) {
  const symbols: { name: string; kind: number; range: { start: Position; end: Position }; selectionRange: { start: Position; end: Position }; children: unknown[] }[] = [];
  docs.get(uri)?.text.split("\n").forEach((line, i) => {
    const at = (n: number) => ({ start: { line: i, character: n }, end: { line: i, character: line.length } });
    const fn = /^fn (\w+)/.exec(line);
    if (fn) symbols.push({ name: fn[1]!, kind: 12, range: at(0), selectionRange: at(3), children: [] });
    const local = /^\s+let (\w+)/.exec(line);
    if (local && symbols.length) symbols.at(-1)!.children.push({ name: local[1]!, kind: 13, range: at(0), selectionRange: at(line.indexOf(local[1]!)) });
  });
  return symbols;
}
c.onRequest("textDocument/documentSymbol", (p: { textDocument: { uri: string } }) => symbolsOf(p.textDocument.uri));
c.onRequest("workspace/symbol", (p: { query: string }) =>
  [...docs.keys()].flatMap((uri) => symbolsOf(uri).filter((s) => s.name.includes(p.query)).map((s) => ({ name: s.name, kind: s.kind, location: { uri, range: s.selectionRange } }))),
);
c.listen();
