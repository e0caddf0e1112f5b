// Rewrites tree-sitter-bash's generated parser.c so JSC can compile it quickly.
//
// The generator wraps a large grammar's C in `#pragma clang optimize off` and emits the main lexer,
// `ts_lex`, as one switch of ~950 states (160 KB of wasm in one function, blocks nested ~480 deep).
// Bun's WebAssembly validation is superlinear in that nesting: compiling the upstream grammar costs
// ~50 ms. Here the pragma goes, and the switch is cut into functions of `chunk` states that each
// return the next state; a small loop in `ts_lex` drives them. The states' code is kept verbatim:
// only the macros it expands (ADVANCE, SKIP, ACCEPT_TOKEN, END_STATE, ADVANCE_MAP) are redefined.

const PRAGMA = `#ifdef _MSC_VER
#pragma optimize("", off)
#elif defined(__clang__)
#pragma clang optimize off
#elif defined(__GNUC__)
#pragma GCC optimize ("O0")
#endif
`;
const HEAD = "static bool ts_lex(TSLexer *lexer, TSStateId state) {\n  START_LEXER();\n  eof = lexer->eof(lexer);\n  switch (state) {\n";
const TAIL = "    default:\n      return false;\n  }\n}\n";

/** Returns parser.c with the pragma removed and ts_lex split; throws when the file is not the shape this was written for. */
export function splitLexer(source: string, chunk: number): { text: string; states: number; functions: number } {
  if (!source.includes(PRAGMA)) throw new Error("parser.c: the optimize-off pragma block is not where it was expected");
  const text = source.replace(PRAGMA, "");
  const start = text.indexOf(HEAD);
  const end = start < 0 ? -1 : text.indexOf(TAIL, start);
  if (start < 0 || end < 0) throw new Error("parser.c: ts_lex is not in the expected shape");
  const cases = text.slice(start + HEAD.length, end).split(/^(?=    case \d+:\n)/m);
  cases.forEach((body, index) => {
    // The range dispatch below needs states numbered 0..n-1 in order, and a state that fell through
    // into the next would cross a function boundary.
    if (Number(/^ {4}case (\d+):\n/.exec(body)?.[1]) !== index) throw new Error(`parser.c: lexer state ${index} is out of order`);
    if (!body.trimEnd().endsWith("END_STATE();")) throw new Error(`parser.c: lexer state ${index} does not end with END_STATE()`);
  });
  const parts: string[] = [];
  const firsts: number[] = [];
  for (let first = 0; first < cases.length; first += chunk) {
    firsts.push(first);
    parts.push(`static int32_t ts_lex_${parts.length}(TSLexer *lexer, TSStateId state, TSLexStep *step) {
  const bool eof = step->eof;
  const int32_t lookahead = step->lookahead;
  switch (state) {
${cases.slice(first, first + chunk).join("")}    default:
      return TS_LEX_UNKNOWN;
  }
}
`);
  }
  const dispatch = firsts
    .map((_, i) => (i === firsts.length - 1 ? `ts_lex_${i}(lexer, state, &step)` : `state < ${firsts[i + 1]} ? ts_lex_${i}(lexer, state, &step) :`))
    .join("\n      ");
  const replacement = `typedef struct { bool result; bool skip; bool eof; int32_t lookahead; } TSLexStep;
#define TS_LEX_END (-1)
#define TS_LEX_UNKNOWN (-2)
#undef ADVANCE
#undef SKIP
#undef ACCEPT_TOKEN
#undef END_STATE
#undef ADVANCE_MAP
#define ADVANCE(state_value) return (state_value);
#define SKIP(state_value) { step->skip = true; return (state_value); }
#define ACCEPT_TOKEN(symbol_value) step->result = true; lexer->result_symbol = symbol_value; lexer->mark_end(lexer);
#define END_STATE() return TS_LEX_END;
#define ADVANCE_MAP(...) { static const uint16_t map[] = { __VA_ARGS__ }; for (uint32_t i = 0; i < sizeof(map) / sizeof(map[0]); i += 2) { if (map[i] == lookahead) return map[i + 1]; } }

${parts.join("\n")}
#undef ADVANCE
#undef SKIP
#undef ACCEPT_TOKEN
#undef END_STATE
#undef ADVANCE_MAP
#define ADVANCE(state_value) { state = state_value; goto next_state; }
#define SKIP(state_value) { skip = true; state = state_value; goto next_state; }
#define ACCEPT_TOKEN(symbol_value) result = true; lexer->result_symbol = symbol_value; lexer->mark_end(lexer);
#define END_STATE() return result;
#define ADVANCE_MAP(...) { static const uint16_t map[] = { __VA_ARGS__ }; for (uint32_t i = 0; i < sizeof(map) / sizeof(map[0]); i += 2) { if (map[i] == lookahead) { state = map[i + 1]; goto next_state; } } }

/* Same steps as START_LEXER: each state sees the current lookahead and eof, then the lexer advances. */
static bool ts_lex(TSLexer *lexer, TSStateId state) {
  TSLexStep step = { false, false, false, 0 };
  for (;;) {
    step.skip = false;
    step.lookahead = lexer->lookahead;
    step.eof = lexer->eof(lexer);
    int32_t next =
      ${dispatch};
    if (next == TS_LEX_END) return step.result;
    if (next == TS_LEX_UNKNOWN) return false;
    state = (TSStateId)next;
    lexer->advance(lexer, step.skip);
  }
}
`;
  return { text: text.slice(0, start) + replacement + text.slice(end + TAIL.length), states: cases.length, functions: parts.length };
}
