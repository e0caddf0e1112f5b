import { describe, expect, test } from "bun:test";
import { editKey, LineEditor, wrapByWidth } from "../../../../src/cli/term/editor.ts";

/** An editor holding `text` with the cursor where `|` is. */
function editorAt(marked: string, history: string[] = []): LineEditor {
  const editor = new LineEditor(history);
  const at = marked.indexOf("|");
  editor.set(marked.slice(0, at) + marked.slice(at + 1));
  editor.cursor = at;
  return editor;
}

/** The editor's text with `|` where the cursor is. */
function shown(editor: LineEditor): string {
  return `${editor.text.slice(0, editor.cursor)}|${editor.text.slice(editor.cursor)}`;
}

describe("LineEditor: editing", () => {
  test("insert at the cursor in the middle", () => {
    const editor = editorAt("helo| world");
    editor.left();
    editor.insert("l");
    expect(shown(editor)).toBe("hell|o world");
    editor.insert("ish");
    expect(shown(editor)).toBe("hellish|o world");
  });

  test("backspace and delete around a cursor in the middle", () => {
    const editor = editorAt("abc|def");
    editor.backspace();
    expect(shown(editor)).toBe("ab|def");
    editor.delete();
    expect(shown(editor)).toBe("ab|ef");
  });

  test("backspace at the start and delete at the end change nothing", () => {
    const start = editorAt("|abc");
    start.backspace();
    expect(shown(start)).toBe("|abc");
    const end = editorAt("abc|");
    end.delete();
    expect(shown(end)).toBe("abc|");
  });

  test("an emoji is deleted whole by backspace and by delete, and stepped over whole", () => {
    const editor = editorAt("a😀|😀b");
    editor.backspace();
    expect(shown(editor)).toBe("a|😀b");
    editor.delete();
    expect(shown(editor)).toBe("a|b");

    const moving = editorAt("|😀x");
    moving.right();
    expect(moving.cursor).toBe(2);
    moving.left();
    expect(moving.cursor).toBe(0);
  });

  test("home and end stay on the cursor's line of a multi-line text", () => {
    const editor = editorAt("first\nsec|ond\nthird");
    editor.home();
    expect(shown(editor)).toBe("first\n|second\nthird");
    editor.end();
    expect(shown(editor)).toBe("first\nsecond|\nthird");
    const last = editorAt("one\ntw|o");
    last.end();
    expect(shown(last)).toBe("one\ntwo|");
    last.home();
    expect(shown(last)).toBe("one\n|two");
  });

  test("word moves skip spaces then a word", () => {
    const editor = editorAt("git commit  -m| msg");
    editor.wordLeft();
    expect(shown(editor)).toBe("git commit  |-m msg");
    editor.wordLeft();
    expect(shown(editor)).toBe("git |commit  -m msg");
    editor.wordRight();
    expect(shown(editor)).toBe("git commit|  -m msg");
  });

  test("Ctrl-W deletes the word before the cursor with the spaces after it", () => {
    const editor = editorAt("run the tests  |now");
    editor.deleteWordBefore();
    expect(shown(editor)).toBe("run the |now");
    editor.deleteWordBefore();
    expect(shown(editor)).toBe("run |now");
  });

  test("Ctrl-U deletes the line before the cursor; at a line start it joins with the line above", () => {
    const editor = editorAt("keep\ndrop this|, keep");
    editor.deleteToLineStart();
    expect(shown(editor)).toBe("keep\n|, keep");
    editor.deleteToLineStart();
    expect(shown(editor)).toBe("keep|, keep");
    const start = editorAt("|abc");
    start.deleteToLineStart();
    expect(shown(start)).toBe("|abc");
  });

  test("Ctrl-K deletes the rest of the line; at a line end it joins the next line", () => {
    const editor = editorAt("ab|cd\nef");
    editor.deleteToLineEnd();
    expect(shown(editor)).toBe("ab|\nef");
    editor.deleteToLineEnd();
    expect(shown(editor)).toBe("ab|ef");
    const end = editorAt("abc|");
    end.deleteToLineEnd();
    expect(shown(end)).toBe("abc|");
  });
});

describe("LineEditor: lines and history", () => {
  test("up and down move between lines, keeping the column where the line allows", () => {
    const editor = editorAt("long first line\nab\nthird lin|e");
    editor.up();
    expect(shown(editor)).toBe("long first line\nab|\nthird line");
    editor.up();
    expect(shown(editor)).toBe("lo|ng first line\nab\nthird line");
    editor.down();
    expect(shown(editor)).toBe("long first line\nab|\nthird line");
    editor.down();
    expect(shown(editor)).toBe("long first line\nab\nth|ird line");
  });

  test("up on the first line goes through history; down comes back to the draft", () => {
    const editor = new LineEditor(["older", "newer"]);
    editor.insert("my draft");
    editor.up();
    expect(editor.text).toBe("newer");
    expect(editor.cursor).toBe(5);
    editor.up();
    expect(editor.text).toBe("older");
    editor.up(); // no older entry: stays
    expect(editor.text).toBe("older");
    editor.down();
    expect(editor.text).toBe("newer");
    editor.down();
    expect(shown(editor)).toBe("my draft|");
    editor.down(); // past the draft: nothing
    expect(editor.text).toBe("my draft");
  });

  test("history added after the first paint comes before what the editor already holds; up starts from the newest", () => {
    const editor = new LineEditor();
    editor.addOlderHistory(["older", "newer"]);
    editor.up();
    expect(editor.text).toBe("newer");
    editor.up();
    expect(editor.text).toBe("older");
    const since = new LineEditor(["typed since"]);
    since.addOlderHistory(["from the file"]);
    since.up();
    expect(since.text).toBe("typed since");
    since.up();
    expect(since.text).toBe("from the file");
  });

  test("on a multi-line draft, up moves to the first line before it reaches the history", () => {
    const editor = new LineEditor(["previous"]);
    editor.insert("line one\nline two");
    editor.up();
    expect(editor.text).toBe("line one\nline two");
    expect(editor.cursor).toBe(8);
    editor.up();
    expect(editor.text).toBe("previous");
    editor.down();
    expect(editor.text).toBe("line one\nline two");
  });

  test("a multi-line history entry: down walks its lines before the next entry", () => {
    const editor = new LineEditor(["a1\na2", "b"]);
    editor.up();
    editor.up();
    expect(shown(editor)).toBe("a1\na2|");
    editor.up();
    expect(shown(editor)).toBe("a1|\na2");
    editor.down();
    expect(shown(editor)).toBe("a1\na2|");
    editor.down();
    expect(editor.text).toBe("b");
  });

  test("submit returns the text, empties the buffer and remembers it once", () => {
    const editor = new LineEditor();
    editor.insert("hello");
    expect(editor.submit()).toBe("hello");
    expect(editor.empty).toBe(true);
    expect(editor.cursor).toBe(0);
    editor.insert("hello");
    editor.submit();
    editor.insert("other");
    editor.submit();
    editor.insert("hello");
    editor.submit();
    expect(editor.entries()).toEqual(["hello", "other", "hello"]);
    editor.insert("   ");
    expect(editor.submit()).toBe("   ");
    expect(editor.entries()).toEqual(["hello", "other", "hello"]);
  });

  test("after a submit, up recalls it and down returns to an empty draft", () => {
    const editor = new LineEditor(["old"]);
    editor.insert("new");
    editor.submit();
    editor.up();
    expect(editor.text).toBe("new");
    editor.up();
    expect(editor.text).toBe("old");
    editor.down();
    editor.down();
    expect(editor.text).toBe("");
  });

  test("the history keeps the last 500 entries", () => {
    const editor = new LineEditor();
    for (let i = 0; i < 510; i++) {
      editor.insert(`p${i}`);
      editor.submit();
    }
    expect(editor.entries().length).toBe(500);
    expect(editor.entries()[0]).toBe("p10");
    expect(editor.entries().at(-1)).toBe("p509");
  });
});

describe("LineEditor: pastes", () => {
  test("a short paste is inserted as typed", () => {
    const editor = editorAt("say: |!");
    editor.paste("two\nlines");
    expect(shown(editor)).toBe("say: two\nlines|!");
    expect(editor.submit()).toBe("say: two\nlines!");
  });

  test("a long paste shows as a placeholder and submit sends it in full", () => {
    const pasted = Array.from({ length: 40 }, (_, i) => `row ${i}`).join("\n");
    const editor = new LineEditor();
    editor.insert("look at ");
    editor.paste(pasted);
    editor.insert(" please");
    expect(editor.text).toBe(`look at [pasted text #1: 40 lines, ${pasted.length} chars] please`);
    expect(editor.text).not.toContain("row 39");
    expect(editor.submit()).toBe(`look at ${pasted} please`);
  });

  test("a long single-line paste is a placeholder too", () => {
    const pasted = "x".repeat(5000);
    const editor = new LineEditor();
    editor.paste(pasted);
    expect(editor.text.length).toBeLessThan(100);
    expect(editor.submit()).toBe(pasted);
  });

  test("two long pastes each expand to their own text", () => {
    const a = "A\n".repeat(20);
    const b = "B\n".repeat(30);
    const editor = new LineEditor();
    editor.paste(a);
    editor.insert(" and ");
    editor.paste(b);
    expect(editor.text).toContain("#1");
    expect(editor.text).toContain("#2");
    expect(editor.submit()).toBe(`${a} and ${b}`);
  });

  test("a long paste recalled from the history with Up is sent in full again", () => {
    const pasted = Array.from({ length: 20 }, (_, i) => `row ${i}`).join("\n");
    const editor = new LineEditor();
    editor.insert("fix ");
    editor.paste(pasted);
    expect(editor.submit()).toBe(`fix ${pasted}`);
    editor.up();
    expect(editor.submit()).toBe(`fix ${pasted}`);
  });

  test("a placeholder typed by hand, with no paste behind it, is sent as typed", () => {
    const editor = new LineEditor();
    editor.insert("[pasted text #7: 3 lines, 9 chars]");
    expect(editor.submit()).toBe("[pasted text #7: 3 lines, 9 chars]");
  });
});

describe("LineEditor.layout", () => {
  test("a short text is one row after the prompt, the cursor after the prompt's width", () => {
    const editor = editorAt("ab|c");
    expect(editor.layout("> ", 2, 40, 10)).toEqual({ rows: ["> abc"], cursorRow: 0, cursorCol: 4 });
  });

  test("other lines are indented by the prompt's width", () => {
    const editor = editorAt("one\ntw|o");
    expect(editor.layout("> ", 2, 40, 10)).toEqual({ rows: ["> one", "  two"], cursorRow: 1, cursorCol: 4 });
  });

  test("a long line wraps so that every row fits the width", () => {
    const text = "the quick brown fox jumps over the lazy dog ".repeat(5);
    const editor = new LineEditor();
    editor.set(text);
    const width = 20;
    const { rows, cursorRow, cursorCol } = editor.layout("> ", 2, width, 100);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(width);
    expect(rows.map((row) => row.slice(2)).join("")).toBe(text);
    expect(cursorRow).toBe(rows.length - 1);
    expect(cursorCol).toBeLessThanOrEqual(width - 1);
  });

  test("the cursor at a wrap boundary is at the start of the next row", () => {
    // width 10, prompt 2: 7 columns of text per row
    const editor = new LineEditor();
    editor.set("abcdefghijklmn");
    editor.cursor = 7;
    const layout = editor.layout("> ", 2, 10, 10);
    expect(layout.rows).toEqual(["> abcdefg", "  hijklmn"]);
    expect(layout.cursorRow).toBe(1);
    expect(layout.cursorCol).toBe(2);
    editor.cursor = 6;
    expect(editor.layout("> ", 2, 10, 10)).toMatchObject({ cursorRow: 0, cursorCol: 8 });
    // at the very end of a row that fills the width exactly, the cursor stays on the last row
    editor.cursor = 14;
    expect(editor.layout("> ", 2, 10, 10)).toMatchObject({ cursorRow: 1, cursorCol: 9 });
  });

  test("wide CJK characters count two columns and are never split", () => {
    const editor = new LineEditor();
    editor.set("日本語のテキストです");
    const width = 12;
    const layout = editor.layout("> ", 2, width, 10);
    for (const row of layout.rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(width);
    expect(layout.rows.map((row) => row.slice(2)).join("")).toBe("日本語のテキストです");
    // 9 columns of room: 4 wide characters (8 columns) per row
    expect(layout.rows).toEqual(["> 日本語の", "  テキスト", "  です"]);
    editor.cursor = 5; // after "日本語のテ"
    expect(editor.layout("> ", 2, width, 10)).toMatchObject({ cursorRow: 1, cursorCol: 4 });
  });

  test("with maxRows, the rows shown keep the cursor's row visible", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const editor = new LineEditor();
    editor.set(lines.join("\n"));
    const atEnd = editor.layout("> ", 2, 40, 5);
    expect(atEnd.rows.length).toBe(5);
    expect(atEnd.rows[atEnd.cursorRow]).toBe("  line 29");

    editor.cursor = 0;
    const atStart = editor.layout("> ", 2, 40, 5);
    expect(atStart.rows.length).toBe(5);
    expect(atStart.cursorRow).toBe(0);
    expect(atStart.rows[0]).toBe("> line 0");

    editor.cursor = editor.text.indexOf("line 15");
    const middle = editor.layout("> ", 2, 40, 5);
    expect(middle.rows.length).toBe(5);
    expect(middle.rows[middle.cursorRow]).toBe("  line 15");
  });

  test("an empty buffer is the prompt alone with the cursor after it", () => {
    expect(new LineEditor().layout("› ", 2, 40, 5)).toEqual({ rows: ["› "], cursorRow: 0, cursorCol: 2 });
  });
});

describe("wrapByWidth", () => {
  test("a line that fits is one piece", () => {
    expect(wrapByWidth("hello", 5)).toEqual(["hello"]);
    expect(wrapByWidth("", 5)).toEqual([""]);
  });

  test("a longer line is cut into pieces of at most the width", () => {
    expect(wrapByWidth("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });

  test("wide characters count two columns and move whole to the next piece", () => {
    expect(wrapByWidth("a日本語", 4)).toEqual(["a日", "本語"]);
    for (const piece of wrapByWidth("漢字かな交じり文", 5)) expect(Bun.stringWidth(piece)).toBeLessThanOrEqual(5);
  });

  test("emoji are not split into halves", () => {
    const pieces = wrapByWidth("😀😀😀", 3);
    expect(pieces).toEqual(["😀", "😀", "😀"]);
  });

  test("a wide character wider than the width still gets a piece of its own", () => {
    expect(wrapByWidth("日本", 1)).toEqual(["日", "本"]);
  });
});

describe("editKey", () => {
  test("typing, moving and deleting keys edit the buffer; keys the editor does not own are left to the caller", () => {
    const editor = new LineEditor();
    for (const key of [{ name: "text", text: "hello world" }, { name: "ctrl-a" }, { name: "delete" }, { name: "ctrl-e" }, { name: "ctrl-w" }] as const) {
      expect(editKey(editor, key)).toBe(true);
    }
    expect(editor.text).toBe("ello ");
    expect(editKey(editor, { name: "newline" })).toBe(true);
    expect(editor.text).toBe("ello \n");
    for (const name of ["enter", "ctrl-c", "ctrl-d", "tab", "escape"] as const) expect(editKey(editor, { name })).toBe(false);
    expect(editor.text).toBe("ello \n");
  });
});

describe("what the editor draws", () => {
  test("a pasted tab is drawn as two spaces and an escape as ?, so the terminal gets no sequence from the text; the text itself is kept", () => {
    const editor = new LineEditor();
    editor.paste("a\tb\x1b[2Jc");
    const { rows, cursorCol } = editor.layout("› ", 2, 80, 5);
    expect(rows).toEqual(["› a  b?[2Jc"]);
    expect(cursorCol).toBe(2 + Bun.stringWidth("a  b?[2Jc"));
    expect(rows.join("")).not.toContain("\x1b");
    expect(editor.submit()).toBe("a\tb\x1b[2Jc");
  });

  test("tabs count their drawn width when a line wraps", () => {
    const editor = new LineEditor();
    editor.insert("\t\t\t\t\t\t"); // 12 columns drawn
    const { rows } = editor.layout("› ", 2, 10, 5);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(9);
    expect(rows.length).toBe(2);
  });
});
