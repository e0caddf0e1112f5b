// The grammar's tables (1.2 MB of parse tables, lexer modes, names) are one data segment of the
// wasm, and JSC's WebAssembly.compile reads a data segment a byte at a time into a growing buffer:
// about 830 page faults and 20 ms of CPU of the grammar's compile, for bytes the engine only copies.
// So the build takes the segment out into a file of its own (tree-sitter-bash.data), and the loader
// (src/permission/shell/parser.ts) writes it into the grammar's memory itself, then runs the
// relocations again. The segment must sit at __memory_base + 0 (wasm-ld's PIC output does); where the
// language struct lies in it is read from tree_sitter_bash's body, which returns __memory_base + that.

export type Detached = { wasm: Uint8Array; data: Uint8Array; languageOffset: number };

type Section = { id: number; start: number; end: number; body: number };

export function detachData(bytes: Uint8Array): Detached {
  const sections = readSections(bytes);
  const dataSections = sections.filter((s) => s.id === 11);
  if (dataSections.length !== 1) throw new Error("the grammar has no data section");
  const memoryBase = importedGlobal(bytes, sections, "__memory_base");
  const data = onlySegment(bytes, dataSections[0]!, memoryBase);
  const languageOffset = languageAt(bytes, sections, memoryBase);
  if (languageOffset < 0 || languageOffset >= data.length) throw new Error("tree_sitter_bash does not point into the data");
  // The data count section (12), if any, counts the segments removed with it.
  const kept = sections.filter((s) => s.id !== 11 && s.id !== 12);
  const parts = [bytes.subarray(0, 8), ...kept.map((s) => bytes.subarray(s.start, s.end))];
  const wasm = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    wasm.set(part, at);
    at += part.length;
  }
  return { wasm, data, languageOffset };
}

function leb(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new Error("the grammar's wasm is cut short");
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return [value, at];
  }
}

function readSections(bytes: Uint8Array): Section[] {
  const sections: Section[] = [];
  let at = 8;
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++]!;
    const [size, body] = leb(bytes, at);
    sections.push({ id, start, end: body + size, body });
    at = body + size;
  }
  return sections;
}

function name(bytes: Uint8Array, at: number): [string, number] {
  const [length, from] = leb(bytes, at);
  return [new TextDecoder().decode(bytes.subarray(from, from + length)), from + length];
}

/** The index of the imported global `env.<wanted>`. */
function importedGlobal(bytes: Uint8Array, sections: Section[], wanted: string): number {
  const section = sections.find((s) => s.id === 2);
  if (!section) throw new Error("the grammar imports nothing");
  let [count, at] = leb(bytes, section.body);
  let globals = 0;
  for (; count > 0; count--) {
    const [module, afterModule] = name(bytes, at);
    const [field, afterField] = name(bytes, afterModule);
    const kind = bytes[afterField]!;
    at = afterField + 1;
    if (kind === 0) at = leb(bytes, at)[1];
    else if (kind === 1) at = limits(bytes, at + 1);
    else if (kind === 2) at = limits(bytes, at);
    else if (kind === 3) {
      if (module === "env" && field === wanted) return globals;
      globals++;
      at += 2;
    } else throw new Error(`the grammar imports something of kind ${kind}`);
  }
  throw new Error(`the grammar does not import ${wanted}`);
}

function limits(bytes: Uint8Array, at: number): number {
  const flags = bytes[at]!;
  let next = leb(bytes, at + 1)[1];
  if (flags & 1) next = leb(bytes, next)[1];
  return next;
}

/** The one active segment, at `global.get memoryBase` exactly. */
function onlySegment(bytes: Uint8Array, section: Section, memoryBase: number): Uint8Array {
  const [count, at] = leb(bytes, section.body);
  if (count !== 1 || bytes[at] !== 0 || bytes[at + 1] !== 0x23) throw new Error("the grammar's data is not one segment at __memory_base");
  const [global, afterGlobal] = leb(bytes, at + 2);
  if (global !== memoryBase || bytes[afterGlobal] !== 0x0b) throw new Error("the grammar's data is not one segment at __memory_base");
  const [length, from] = leb(bytes, afterGlobal + 1);
  if (from + length !== section.end) throw new Error("the grammar's data segment does not fill its section");
  return bytes.slice(from, from + length);
}

/** tree_sitter_bash's body is `global.get __memory_base; i32.const K; i32.add`: K. */
function languageAt(bytes: Uint8Array, sections: Section[], memoryBase: number): number {
  const exports = sections.find((s) => s.id === 7);
  const imports = sections.find((s) => s.id === 2);
  const code = sections.find((s) => s.id === 10);
  if (!exports || !imports || !code) throw new Error("the grammar lacks its exports or code");
  let [count, at] = leb(bytes, exports.body);
  let index = -1;
  for (; count > 0; count--) {
    const [field, afterField] = name(bytes, at);
    const kind = bytes[afterField]!;
    const [value, next] = leb(bytes, afterField + 1);
    if (field === "tree_sitter_bash" && kind === 0) index = value;
    at = next;
  }
  if (index < 0) throw new Error("the grammar exports no tree_sitter_bash");
  const local = index - importedFunctions(bytes, imports);
  let [bodies, pos] = leb(bytes, code.body);
  for (let i = 0; i < bodies; i++) {
    const [size, body] = leb(bytes, pos);
    if (i === local) {
      const [locals, afterLocals] = leb(bytes, body);
      if (locals !== 0 || bytes[afterLocals] !== 0x23) break;
      const [global, afterGlobal] = leb(bytes, afterLocals + 1);
      if (global !== memoryBase || bytes[afterGlobal] !== 0x41) break;
      const [offset, afterConst] = leb(bytes, afterGlobal + 1);
      if (bytes[afterConst] !== 0x6a || bytes[afterConst + 1] !== 0x0b) break;
      return offset;
    }
    pos = body + size;
  }
  throw new Error("tree_sitter_bash is not `__memory_base + offset`");
}

function importedFunctions(bytes: Uint8Array, section: Section): number {
  let [count, at] = leb(bytes, section.body);
  let functions = 0;
  for (; count > 0; count--) {
    at = name(bytes, name(bytes, at)[1])[1];
    const kind = bytes[at++]!;
    if (kind === 0) {
      functions++;
      at = leb(bytes, at)[1];
    } else if (kind === 1) at = limits(bytes, at + 1);
    else if (kind === 2) at = limits(bytes, at);
    else at += 2;
  }
  return functions;
}
