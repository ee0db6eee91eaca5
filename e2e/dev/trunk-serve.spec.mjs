// `trunk serve` at the top of the repository, as a Leptos or Trunk user
// starts it: into a fresh build folder it builds the page that hosts every
// lab and each lab (debug builds, reusing target/), serves them with the
// first lab on the page, and reloads the page when a source changes.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect } from "@playwright/test";

const top = new URL("../..", import.meta.url).pathname;
// The end-to-end server takes E2E_PORT and the one after it.
const port = Number(process.env.E2E_PORT ?? 47801) + 2;
const origin = `http://127.0.0.1:${port}`;

// The page Trunk serves, once its first build has put it in place with
// its labs (the list the build writes into it comes last); a build that
// failed fails the test at once, with what Trunk said.
async function built(log) {
  if (log.text.includes("ERROR")) throw new Error(`trunk serve failed:\n${log.text}`);
  try {
    const response = await fetch(`${origin}/`);
    return response.ok && (await response.text()).includes("data-labs=");
  } catch {
    return false;
  }
}

test("trunk serve builds the app, serves the first lab and reloads the page after a change", async ({ page }) => {
  const dist = mkdtempSync(join(tmpdir(), "idempotency-lab-serve-"));
  const serve = spawn("trunk", ["serve", "--dist", dist, "--port", String(port)], { cwd: top, detached: true });
  const log = { text: "" };
  for (const stream of [serve.stdout, serve.stderr]) stream.on("data", (chunk) => (log.text += chunk));
  try {
    await expect.poll(() => built(log), { timeout: 10 * 60_000, intervals: [1000] }).toBe(true);
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Play", exact: true }).click({ timeout: 60_000 });
    await expect(page.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
    await expect(page.getByLabel("Lab", { exact: true })).toHaveValue("ack");

    // A source written again (its content unchanged) is a change: Trunk
    // rebuilds and the page reloads itself.
    await page.evaluate(() => (window.beforeTheChange = true));
    const reloaded = page.waitForEvent("load", { timeout: 10 * 60_000 });
    const source = join(top, "styles", "base.css");
    writeFileSync(source, readFileSync(source));
    await reloaded;
    expect(await page.evaluate(() => window.beforeTheChange)).toBeUndefined();
    await expect(page.getByRole("button", { name: "Play", exact: true })).toBeEnabled({ timeout: 60_000 });
  } finally {
    process.kill(-serve.pid);
    rmSync(dist, { recursive: true, force: true });
  }
});
