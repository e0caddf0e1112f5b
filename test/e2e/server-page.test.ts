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
      await page.getByRole("button", { name: "New session" }).click();
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
      await page.getByRole("button", { name: "New session" }).click();
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
      await page.getByRole("button", { name: "New session" }).click();
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
