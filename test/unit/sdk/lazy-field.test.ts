// The lazy fields an installed plugin's texts are read through (src/sdk/lazy-field.ts): computed at
// the first read and once; withFields copies an object as a spread would without reading them.
import { expect, test } from "bun:test";
import { lazyField, withFields } from "../../../src/sdk/lazy-field.ts";

function counted(text: string) {
  const reads: string[] = [];
  const command = lazyField({ name: "kit:go", description: "Go", file: "/k/go.md", template: "" }, "template", () => (reads.push(text), text));
  return { command, reads };
}

test("a lazy field is computed at its first read, once, and is enumerable like the others", () => {
  const { command, reads } = counted("Run it");
  expect(reads).toEqual([]);
  expect(Object.keys(command)).toEqual(["name", "description", "file", "template"]);
  expect(command.template).toBe("Run it");
  expect(command.template).toBe("Run it");
  expect(reads).toEqual(["Run it"]);
  expect(JSON.parse(JSON.stringify(command))).toEqual({ name: "kit:go", description: "Go", file: "/k/go.md", template: "Run it" });
});

test("withFields copies the fields in their order and adds its own, leaving the lazy one unread and shared", () => {
  const { command, reads } = counted("Run it");
  const copy = withFields(command, { kind: "command" as const });
  expect(reads).toEqual([]);
  expect(Object.keys(copy)).toEqual(["name", "description", "file", "template", "kind"]);
  expect(copy).not.toBe(command);
  expect(copy.template).toBe("Run it");
  expect(command.template).toBe("Run it");
  expect(reads).toEqual(["Run it"]); // one read for the original and its copy
  const again = withFields(copy, { kind: "skill" as const });
  expect([again.kind, again.template, reads.length]).toEqual(["skill", "Run it", 1]);
});

test("a field set on a copy replaces the lazy one there only; a field withFields gives replaces it unread", () => {
  const { command, reads } = counted("Run it");
  const copy = withFields(command, {});
  copy.template = "mine";
  expect([copy.template, reads.length]).toEqual(["mine", 0]);
  const given = withFields(command, { template: "given" });
  expect([given.template, reads.length]).toEqual(["given", 0]);
  expect(withFields(given, { kind: "x" }).template).toBe("given");
  expect([command.template, reads.length]).toEqual(["Run it", 1]);
  command.template = "set";
  expect([withFields(command, {}).template, Object.getOwnPropertyDescriptor(withFields(command, {}), "template")?.get]).toEqual(["set", undefined]);
});

test("fields named as Object's own methods are lazy or plain as made, and each key keeps its own value", () => {
  const a = lazyField(lazyField({ toString: "plain", body: "", prompt: "" }, "body", () => "A body"), "prompt", () => "A prompt");
  const b = lazyField({ body: "" }, "body", () => "B body");
  const copy = withFields(a, {});
  expect([copy.toString, copy.body, copy.prompt, b.body, a.body]).toEqual(["plain", "A body", "A prompt", "B body", "A body"]);
});

test("an object without lazy fields is spread as it is", () => {
  const plain = { name: "a", template: "t" };
  const copy = withFields(plain, { kind: "command" as const });
  expect(copy).toEqual({ name: "a", template: "t", kind: "command" });
  expect(copy).not.toBe(plain);
});
