// The page of `rein --serve` in a real browser: headless Debian Chromium driven by playwright-core,
// against the compiled binary and the fake model. Skipped when /usr/bin/chromium is not installed
// (.ci/run installs it when it can; Playwright's own browser download does not work here).
import { expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { bash, ROOT, text, toolResultsOf, world } from "./harness.ts";

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
const SCREENSHOT = join(ROOT, "test-results", "server-page.png");
/** The page while the permission ask waits, for a person to look at. */
const ASK_SCREENSHOT = join(ROOT, "test-results", "server-page-ask.png");
const WAIT = { timeout: 15_000 };

test.skipIf(!existsSync(CHROMIUM))(
  "the page: new session, a prompt, a permission answered with Once, the final answer; the file exists",
  async () => {
    const { chromium } = await import("playwright-core");
    await using w = await world();
    w.fake.script({ reply: [text("I will create it."), bash("touch made-by-page")] }, { reply: [text("Created made-by-page for you.")] });

    const server = w.start(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: TOKEN }, timeoutMs: 60_000 });
    await server.waitForStdout((out) => out.includes("\n"), "the server's URL");
    const url = server.stdout.split("\n")[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // A persistent context on a new, empty profile folder inside the test's temp root.
    const browser = await chromium.launchPersistentContext(join(w.root, "chromium-profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 700 },
    });
    const pageErrors: string[] = [];
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      page.on("pageerror", (error) => pageErrors.push(error.message));
      page.setDefaultTimeout(WAIT.timeout);

      // Not logged in: the page sends the browser to the login form; the token goes in its field.
      await page.goto(`${url}/`);
      await page.waitForURL((u) => u.pathname === "/login");
      await page.getByLabel("Token").fill(TOKEN);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL((u) => u.pathname === "/");

      await page.getByRole("button", { name: "New session" }).click();
      await page.getByRole("textbox", { name: "Prompt" }).fill("create the file made-by-page");
      await page.getByRole("button", { name: "Send" }).click();

      const once = page.getByRole("button", { name: "Once" });
      await once.waitFor(WAIT);
      await expect(page.getByText("touch made-by-page").first().isVisible()).resolves.toBe(true);
      await mkdir(join(ROOT, "test-results"), { recursive: true });
      await page.screenshot({ path: ASK_SCREENSHOT });
      await once.click();
      // Answered: the ask's buttons go away (a permission_reply event).
      await once.waitFor({ state: "detached", ...WAIT });

      await page.getByText("Created made-by-page for you.").waitFor(WAIT);
      await page.locator(".result").getByText("success").waitFor(WAIT);
      expect(existsSync(w.path("made-by-page"))).toBe(true);
      const [toolResult] = toolResultsOf(w.fake.requests[1]);
      expect(toolResult?.is_error).toBeFalsy();

      // The new session is in the list.
      await page.locator("#sessions li").first().waitFor(WAIT);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(statSync(SCREENSHOT).size).toBeGreaterThan(0);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }

    server.kill("SIGTERM");
    const exit = await server.exited;
    expect(exit.code).toBe(0);
  },
  90_000,
);
