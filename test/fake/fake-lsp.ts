// A language server of our own for tests, over stdio with vscode-jsonrpc: answers initialize,
// publishes one error per line containing "BAD" when a document opens or changes. Modes (argv[2]):
// "ok"; "crash" exits (code 3) on the first didChange; "silent" never publishes.
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const mode = process.argv[2] ?? "ok";
const c = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
c.onRequest("initialize", () => ({ capabilities: { textDocumentSync: 1 } }));
c.onRequest("shutdown", () => null);
c.onNotification("exit", () => process.exit(0));
const publish = (uri: string, version: number, text: string) => {
  if (mode === "silent") return;
  const diagnostics = text.split("\n").flatMap((line, i) => (line.includes("BAD") ? [{ range: { start: { line: i, character: line.indexOf("BAD") }, end: { line: i, character: line.indexOf("BAD") + 3 } }, severity: 1, code: "F1", source: "fake", message: "BAD is not allowed" }] : []));
  void c.sendNotification("textDocument/publishDiagnostics", { uri, version, diagnostics });
};
c.onNotification("textDocument/didOpen", (p: { textDocument: { uri: string; version: number; text: string } }) => publish(p.textDocument.uri, p.textDocument.version, p.textDocument.text));
c.onNotification("textDocument/didChange", (p: { textDocument: { uri: string; version: number }; contentChanges: { text: string }[] }) => {
  if (mode === "crash") process.exit(3);
  publish(p.textDocument.uri, p.textDocument.version, p.contentChanges.at(-1)?.text ?? "");
});
c.listen();
