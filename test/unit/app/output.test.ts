// rein's writes to stdout and stderr, and its looks at what the standard streams are, in real
// processes whose streams real bash points at a pipe, a file, /dev/full, /dev/null or a terminal
// (script(1) gives one): a full disk on stdout is an OutputError, a reader that went away and an
// unwritable stderr are nothing, and long output arrives whole and in order.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../../support/temp-dir.ts";

const OUTPUT = resolve(import.meta.dir, "../../../src/app/output.ts");
const dir = tempDir("rein-output-");
afterAll(() => dir.remove());

/** Runs `code` (with out, err, warn, stdinIsPiped, bothTerminals imported) under bash's `redirects`. */
async function child(code: string, redirects: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = join(dir.path, `child-${Math.random().toString(36).slice(2)}.ts`);
  await Bun.write(script, `import { out, err, warn, stdinIsPiped, bothTerminals } from ${JSON.stringify(OUTPUT)};\n${code}\n`);
  const proc = Bun.spawn(["bash", "-c", `'${process.execPath}' '${script}' ${redirects}`], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code: exit, stdout, stderr };
}

test("a full disk on stdout is an OutputError naming the stream and the code", async () => {
  const r = await child(`try { out("x".repeat(100000)); } catch (e) { err(\`\${e.constructor.name}: \${e.message}\\n\`); process.exit(7); }`, "> /dev/full");
  expect(r.code).toBe(7);
  expect(r.stderr).toBe("OutputError: cannot write to stdout (ENOSPC)\n");
});

test("a reader that goes away (rein ... | head) ends the output quietly, and the run goes on", async () => {
  const r = await child(`for (let i = 0; i < 5000; i++) out("line ".repeat(40) + "\\n"); err("went on to the end\\n");`, "| head -c 10 > /dev/null");
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("went on to the end\n");
});

test("stderr that cannot be written costs the run nothing", async () => {
  const r = await child(`err("x".repeat(100000)); warn("lost"); out("still here\\n");`, "2> /dev/full");
  expect(r).toMatchObject({ code: 0, stdout: "still here\n" });
});

test("megabytes through a pipe arrive whole and in order; warn prefixes rein:", async () => {
  const r = await child(`for (let i = 0; i < 20000; i++) out(\`\${i} \${"y".repeat(100)}\\n\`); warn("the config has a problem");`, "");
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(20000);
  expect(lines.every((line, i) => line.startsWith(`${i} `))).toBe(true);
  expect(r.stderr).toBe("rein: the config has a problem\n");
});

test("multi-byte text is written as UTF-8 bytes, not cut inside a character", async () => {
  const file = join(dir.path, "utf8.txt");
  const r = await child(`out("ünïcødé ✓ 日本語 🎉\\n".repeat(3000));`, `> '${file}'`);
  expect(r.code).toBe(0);
  expect(readFileSync(file, "utf8")).toBe("ünïcødé ✓ 日本語 🎉\n".repeat(3000));
});

test("stdin counts as piped from a pipe or a file; not from /dev/null, a terminal or when closed", async () => {
  const piped = (redirects: string) => child(`out(String(stdinIsPiped()));`, redirects).then((r) => r.stdout);
  await Bun.write(join(dir.path, "input.txt"), "hello");
  expect(await piped("< /dev/null")).toBe("false");
  expect(await piped(`< '${join(dir.path, "input.txt")}'`)).toBe("true");
  expect(await piped("0<&-")).toBe("false");
  const viaPipe = Bun.spawn(["bash", "-c", `echo hi | '${process.execPath}' -e 'import { stdinIsPiped, out } from ${JSON.stringify(OUTPUT)}; out(String(stdinIsPiped()))'`], { stdout: "pipe" });
  expect(await new Response(viaPipe.stdout).text()).toBe("true");
});

test("both streams terminals only under a terminal; /dev/null is not one", async () => {
  const code = `out(String(await bothTerminals()));`;
  expect((await child(code, "< /dev/null")).stdout).toBe("false");
  const script = join(dir.path, "tty.ts");
  await Bun.write(script, `import { bothTerminals, out } from ${JSON.stringify(OUTPUT)};\n${code}\n`);
  // script(1) runs the command with a pseudo-terminal as its stdin, stdout and stderr
  const tty = Bun.spawn(["script", "-qec", `'${process.execPath}' '${script}'`, "/dev/null"], { stdout: "pipe", stdin: "pipe" });
  tty.stdin.end();
  expect((await new Response(tty.stdout).text()).trim()).toBe("true");
  const halfTty = Bun.spawn(["script", "-qec", `'${process.execPath}' '${script}' < /dev/null`, "/dev/null"], { stdout: "pipe", stdin: "pipe" });
  halfTty.stdin.end();
  expect((await new Response(halfTty.stdout).text()).trim()).toBe("false");
});
