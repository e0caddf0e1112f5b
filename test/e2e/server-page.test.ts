// The page of `rein --serve` in a real browser: headless Debian Chromium driven by playwright-core,
// against the compiled binary and the fake model. Skipped when /usr/bin/chromium is not installed
// (.ci/run installs it when it can; Playwright's own browser download does not work here).
// Each state is saved as a screenshot at a phone and a desktop width in test-results/page-*.png.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { bash, ROOT, text, toolResultsOf, world, type World } from "./harness.ts";

const CHROMIUM = "/usr/bin/chromium";
// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// closed network refuses.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const TOKEN = "0123456789abcdef0123456789abcdef";
const SHOTS = join(ROOT, "test-results");
const WAIT = { timeout: 15_000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The page in both widths, for a person to look at. */
async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  for (const [width, size] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SHOTS, `page-${name}-${width}.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

async function withBrowser(w: World, run: (page: Page, url: string, server: ReturnType<World["start"]>) => Promise<void>): Promise<void> {
  const { chromium } = await import("playwright-core");
  const server = w.start(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: TOKEN }, timeoutMs: 90_000 });
  await server.waitForStdout((out) => out.includes("\n"), "the server's URL");
  const url = server.stdout.split("\n")[0]!;
  const browser = await chromium.launchPersistentContext(join(w.root, "chromium-profile"), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: DESKTOP });
  const pageErrors: string[] = [];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("dialog", (dialog) => void dialog.accept());
    page.setDefaultTimeout(WAIT.timeout);
    await run(page, url, server);
    expect(pageErrors).toEqual([]);
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await server.exited;
  }
}

/** Not logged in: the page sends the browser to the login form; the token goes in its field. */
async function logIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.waitForURL((u) => u.pathname === "/login");
  await page.getByLabel("Token").fill(TOKEN);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((u) => u.pathname === "/");
}

/** "New session", then Start with everything as configured. */
async function startSession(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New session" }).click();
  await page.getByRole("dialog", { name: "New session" }).getByRole("button", { name: "Start" }).click();
  await page.locator("#prompt-form").waitFor({ state: "visible", ...WAIT });
}

const AXE = join(ROOT, "node_modules/axe-core/axe.min.js");

/** axe-core's serious and critical violations of the page as it is, in light and in dark. */
async function accessibility(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    if (!(await page.evaluate(() => "axe" in globalThis))) await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      type Found = { violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] }[] };
      const browser = globalThis as unknown as { axe: { run: (context: unknown) => Promise<Found> }; document: unknown };
      const { violations } = await browser.axe.run(browser.document);
      return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} (${n.failureSummary ?? ""})`).join("; ")}`);
    });
    found.push(...violations.map((v) => `${where}, ${colorScheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

/** The same, at the desktop width and the phone's. */
async function accessibilityBoth(page: Page, where: string): Promise<string[]> {
  const found = await accessibility(page, `${where} (desktop)`);
  await page.setViewportSize(PHONE);
  found.push(...(await accessibility(page, `${where} (phone)`)));
  await page.setViewportSize(DESKTOP);
  return found;
}

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const edit = (path: string, old_string: string, new_string: string) => ({ type: "tool_use" as const, name: "edit", input: { path, old_string, new_string } });
const read = (path: string) => ({ type: "tool_use" as const, name: "read", input: { path } });
const todo = (todos: { content: string; status: string }[]) => ({ type: "tool_use" as const, name: "todo", input: { todos } });

test.skipIf(!existsSync(CHROMIUM))(
  "the page runs a session as the terminal does: asks with what always saves, tool output folded, a diff, the task list, Markdown, cost; it survives a reload",
  async () => {
    await using w = await world();
    await writeFile(w.path("notes.txt"), "colour: blue\n");
    w.fake.script(
      { reply: [text("I will create it."), bash("touch made-by-page && echo created", "toolu_touch")] },
      { reply: [todo([{ content: "create the file", status: "done" }, { content: "fix the notes", status: "in_progress" }]), read("notes.txt")] },
      { reply: [edit("notes.txt", "colour: blue", "colour: green")] },
      { reply: [text("**Done.** I created `made-by-page` and:\n\n- fixed the notes\n- kept the rest\n\n```\nmade-by-page\n```")] },
    );
    await withBrowser(w, async (page, url) => {
      await logIn(page, url);
      await shoot(page, "empty");
      await startSession(page);
      await page.getByRole("textbox", { name: "Prompt" }).fill("create the file made-by-page, then fix the notes");
      await page.getByRole("button", { name: "Send" }).click();

      // The ask shows the command, each request and why it asks, and the rules "always" would save.
      const ask = page.getByRole("group", { name: "Permission request" });
      await ask.waitFor(WAIT);
      await expect(ask.locator("pre").first().textContent()).resolves.toBe("touch made-by-page && echo created");
      await expect(ask.locator(".saves").textContent()).resolves.toBe(`Always saves: bash(touch *), edit(${w.path("made-by-page")})`);
      await expect(ask.getByRole("button").allTextContents()).resolves.toEqual(["Yes, once", "Always (this session)", "Always (for me)", "No"]);
      await expect(page.locator("#state").textContent()).resolves.toBe("waiting for you");
      await shoot(page, "ask");
      await ask.getByRole("button", { name: "Yes, once" }).click();

      // The edit asks with its change as a diff; answered for the session.
      await page.getByText("allowed once").waitFor(WAIT);
      const editAsk = page.getByRole("group", { name: "Permission request" });
      await editAsk.locator(".diff .add").getByText("+colour: green").waitFor(WAIT);
      await expect(editAsk.locator(".diff .del").textContent()).resolves.toBe("-colour: blue");
      await shoot(page, "ask-edit");
      await editAsk.getByRole("button", { name: "Always (this session)" }).click();

      await page.locator(".result").getByText("done").waitFor(WAIT);
      // Markdown rendered, not shown as source.
      await expect(page.locator(".answer strong").last().textContent()).resolves.toBe("Done.");
      await expect(page.locator(".answer li").allTextContents()).resolves.toEqual(["fixed the notes", "kept the rest"]);
      await expect(page.locator(".answer pre code").last().textContent()).resolves.toBe("made-by-page");
      // Each tool call: its name and main argument, the output folded until opened.
      const bashCall = page.locator("details.tool", { hasText: "touch made-by-page" });
      await expect(bashCall.getAttribute("open")).resolves.toBeNull();
      await bashCall.locator("summary").click();
      await expect(bashCall.locator("pre").textContent()).resolves.toContain("created");
      await expect(page.locator("details.tool.ok .arg").allTextContents()).resolves.toEqual(["touch made-by-page && echo created", "2 tasks", "notes.txt", "notes.txt"]);
      await expect(page.locator("details.tool", { hasText: "edit" }).locator(".diff .add").textContent()).resolves.toBe("+colour: green");
      await expect(page.locator("#todos summary").textContent()).resolves.toBe("Tasks: 1 of 2 done");
      await expect(page.locator("#meter").textContent()).resolves.toMatch(/^context \d+(\.\d)?k of \d+(\.\d)?[kM] \(\d+%\) · (\$\d+\.\d{4}|cost unknown)$/);
      await expect(page.locator("#state").textContent()).resolves.toBe("done");
      expect(await Bun.file(w.path("notes.txt")).text()).toBe("colour: green\n");
      expect(toolResultsOf(w.fake.requests[1])[0]?.is_error).toBeFalsy();
      await shoot(page, "done");

      // A reload keeps the login and the open session; the conversation is drawn again from the events.
      await page.reload();
      await page.locator(".result").getByText("done").waitFor(WAIT);
      expect(new URL(page.url()).pathname).toBe("/");
      await expect(page.locator(".answer strong").last().textContent()).resolves.toBe("Done.");
      await page.setViewportSize(PHONE);
      await page.getByRole("button", { name: "All sessions" }).click();
      await page.setViewportSize(DESKTOP);
      await shoot(page, "sessions");
    });
  },
  120_000,
);

test.skipIf(!existsSync(CHROMIUM))(
  "the page rejects with a message and aborts a run; it says so when its session is deleted and when the server goes away, and stops retrying",
  async () => {
    await using w = await world();
    w.fake.script({ reply: [bash("rm -rf build", "toolu_rm")] }, { hang: true, afterText: "Thinking about another way" });
    await withBrowser(w, async (page, url, server) => {
      await logIn(page, url);
      await startSession(page);
      await page.getByRole("textbox", { name: "Prompt" }).fill("clean up");
      await page.getByRole("button", { name: "Send" }).click();
      const ask = page.getByRole("group", { name: "Permission request" });
      await ask.getByLabel("Why not").fill("keep the build folder");
      await ask.getByRole("button", { name: "No" }).click();
      await page.getByText("rejected: keep the build folder").waitFor(WAIT);
      await page.getByText("Thinking about another way").waitFor(WAIT);
      await page.getByRole("button", { name: "Abort" }).click();
      await page.locator(".result").getByText("interrupted").waitFor(WAIT);
      await expect(page.locator("#state").textContent()).resolves.toBe("interrupted");
      await expect(page.getByRole("button", { name: "Abort" }).isHidden()).resolves.toBe(true);
      expect(toolResultsOf(w.fake.requests[1])[0]).toMatchObject({ is_error: true });
      await shoot(page, "interrupted");
      await page.locator("#sessions li").first().waitFor(WAIT);
      const [first] = await page.locator("#sessions .delete").all();
      await first!.click();
      await page.getByRole("heading", { name: "This session was deleted" }).waitFor(WAIT);
      await expect(page.locator("#prompt-form").isHidden()).resolves.toBe(true);
      await page.locator("#sessions li").first().waitFor({ state: "detached", ...WAIT });
      await shoot(page, "deleted");

      await page.getByRole("button", { name: "Back to the sessions" }).click();
      await startSession(page);
      await page.locator("#prompt-form").waitFor({ state: "visible", ...WAIT });
      server.kill("SIGTERM");
      await server.exited;
      await page.getByRole("heading", { name: "The server is not answering" }).waitFor({ timeout: 30_000 });
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      await shoot(page, "gone");
      // Given up: no request goes out until the person asks again.
      await expect(page.getByRole("button", { name: "Try again" }).isVisible()).resolves.toBe(true);
      await page.getByRole("button", { name: "Try again" }).click();
      await page.getByText("still not answering").waitFor(WAIT);
      expect(requests.filter((r) => !r.endsWith("/health"))).toEqual([]);
    });
  },
  120_000,
);

test.skipIf(!existsSync(CHROMIUM))(
  "a new session with its folder, agent, model and mode; an image sent with the prompt; undo and redo; MCP status and cost; axe-core finds nothing serious or critical, light and dark, desktop and phone",
  async () => {
    await using w = await world();
    await mkdir(w.path("sub/.git"), { recursive: true });
    await writeFile(join(w.configDir, "config.json"), JSON.stringify({ mcpServers: { ghost: { command: "no-such-mcp-server-here" } } }));
    w.fake.script(
      { reply: [{ type: "tool_use", id: "toolu_made", name: "write", input: { path: "made.txt", content: "made by the page\n" } }] },
      { reply: [text("I wrote made.txt.")] },
    );
    await withBrowser(w, async (page, url) => {
      const problems: string[] = [];
      await page.goto(`${url}/login`);
      problems.push(...(await accessibilityBoth(page, "login")));
      await logIn(page, url);
      problems.push(...(await accessibilityBoth(page, "no session")));

      await page.getByRole("button", { name: "New session" }).click();
      const dialog = page.getByRole("dialog", { name: "New session" });
      await dialog.getByLabel("Folder").fill(w.path("sub"));
      await dialog.getByLabel("Folder").dispatchEvent("change");
      await dialog.getByLabel("Agent").locator("option", { hasText: "build" }).first().waitFor({ state: "attached", ...WAIT });
      await dialog.getByLabel("Agent").selectOption("build");
      // Another ask for the lists (a change of folder) keeps what was chosen, whichever answer comes last.
      await page.evaluate(`document.querySelectorAll("#new-agent option").forEach((o) => o.setAttribute("data-old", ""))`);
      await dialog.getByLabel("Folder").dispatchEvent("change");
      await page.waitForFunction(`document.querySelector("#new-agent option") && !document.querySelector("#new-agent option[data-old]")`, undefined, WAIT);
      expect(await dialog.getByLabel("Agent").inputValue()).toBe("build");
      await dialog.getByLabel("Model").selectOption("claude-haiku-4-5");
      await dialog.getByLabel("Permission mode").selectOption("accept-edits");
      problems.push(...(await accessibility(page, "new session dialog")));
      await shoot(page, "new-session");
      await dialog.getByRole("button", { name: "Start" }).click();
      await page.locator("#prompt-form").waitFor({ state: "visible", ...WAIT });
      const id = decodeURIComponent(new URL(page.url()).hash.slice(1));
      const detail = (await page.evaluate(async (id) => (await fetch(`/sessions/${encodeURIComponent(id)}`)).json(), id)) as { session: unknown };
      expect(detail.session).toMatchObject({ cwd: w.path("sub"), model: "claude-haiku-4-5", settings: { agent: "build", permission_mode: "accept-edits" } });
      await expect(page.locator("#where .meta").textContent()).resolves.toBe(`${w.path("sub")} · claude-haiku-4-5 · accept-edits`);
      // The MCP servers' state, the failed one with why.
      await page.locator("#mcp summary").getByText("MCP 0/1 · 1 not ready").waitFor(WAIT);
      await page.locator("#mcp summary").click();
      await expect(page.locator("#mcp li").textContent()).resolves.toContain("ghost failed");
      await page.locator("#mcp summary").click();
      await expect(page.locator("#meter").textContent()).resolves.toBe("$0.0000");

      await page.locator("#attach").setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("button", { name: "Remove dot.png" }).waitFor(WAIT);
      await page.getByRole("textbox", { name: "Prompt" }).fill("write made.txt; the picture shows a dot");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".result").getByText("done").waitFor(WAIT);
      const sent = w.fake.requests[0]!.body;
      expect(sent.model).toBe("claude-haiku-4-5");
      expect(sent.messages[0].content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } });
      await expect(page.locator("#attach-row .chip").count()).resolves.toBe(0);
      expect(await Bun.file(w.path("sub/made.txt")).text()).toBe("made by the page\n");
      await expect(page.locator("#meter").textContent()).resolves.toMatch(/ · \$\d+\.\d{4}$/);
      problems.push(...(await accessibilityBoth(page, "a finished turn")));
      await shoot(page, "turn-done");

      await page.getByRole("button", { name: "Undo" }).click();
      await page.getByText(/^undone: 1 file put back/).waitFor(WAIT);
      expect(await Bun.file(w.path("sub/made.txt")).exists()).toBe(false);
      await page.getByRole("button", { name: "Redo" }).click();
      await page.getByText(/^redone: 1 file changed again/).waitFor(WAIT);
      expect(await Bun.file(w.path("sub/made.txt")).text()).toBe("made by the page\n");
      await shoot(page, "undo-redo");

      await page.setViewportSize(PHONE);
      await page.getByRole("button", { name: "All sessions" }).click();
      problems.push(...(await accessibility(page, "the phone's session list")));
      await page.setViewportSize(DESKTOP);
      expect(problems).toEqual([]);
    });
  },
  180_000,
);
