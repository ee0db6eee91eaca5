// Sharing, embedding, look and feel, and files.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test, expect, open, openEmbedDetails, mirror, figure, endFigure, modelTime, hostOrigin } from "./fixtures.mjs";

const cli = new URL("../../target/release/idempotency-lab", import.meta.url).pathname;

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("a copied link restores the same run and moment in a new page", async ({ page, context }) => {
  await open(page);
  await page.getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await page.getByLabel("Retry key").selectOption({ label: "New key for every attempt" });
  await page.getByLabel("Server execution time").fill("1.5");
  for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Next event" }).click();
  const expected = await mirror(page).textContent();
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.locator(".share-status")).toHaveText("Copied to the clipboard.");
  const link = await page.locator("#share-text").inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const other = await context.newPage();
  await other.goto(link);
  await expect(mirror(other)).toHaveText(expected);
  await expect(other.getByLabel("Server execution time")).toHaveValue("1.5");
  await expect(other.getByLabel("Server deduplicates operation keys (idempotency keys)")).not.toBeChecked();
  await expect(figure(other, "Committed counter")).toHaveText(await figure(page, "Committed counter").textContent());
});

test("a link to the opening run is not overridden by remembered settings", async ({ page, context }) => {
  await open(page);
  await page.getByRole("button", { name: "Next event" }).click();
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await page.locator("#share-text").inputValue();
  expect(link).toMatch(/\?at=2$/);
  // Now this browser remembers different settings.
  await page.getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  for (const address of [link, "/?embed=1"]) {
    const other = await context.newPage();
    await other.goto(address);
    await openEmbedDetails(other);
    await expect(await endFigure(other, "Committed counter")).toHaveText("1");
    await other.close();
  }
  // A bare address is where remembered settings apply; the embed left them alone.
  const bare = await context.newPage();
  await bare.goto("/");
  await expect(await endFigure(bare, "Committed counter")).toHaveText("2");
});

test("the embed view works inside a cross-origin iframe under the strict CSP", async ({ page }) => {
  await page.goto(`${hostOrigin}/?q=${encodeURIComponent("embed=1&dedup=off")}`);
  const frame = page.frameLocator("#lab");
  // Compact: the words are one disclosure away.
  await frame.locator("details.embed-more summary").click();
  const frameMirror = frame.getByRole("region", { name: "State as text" }).locator("pre");
  await expect(frameMirror).toContainText("Model time: 0.00 s");
  // No page chrome: no settings, no toolbar, no experiments.
  await expect(frame.getByLabel("Response fault")).toHaveCount(0);
  await expect(frame.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  // Deduplication off: at 0 s nothing is counted yet; at the end the
  // retry has executed again, two increments.
  const counter = frame.getByRole("region", { name: "At the playhead" }).locator(".figure", { hasText: "Committed counter" }).locator("dd");
  await expect(counter).toHaveText("0");
  await frame.getByRole("slider", { name: "Time" }).press("End");
  await expect(counter).toHaveText("2");
  await frame.getByRole("button", { name: "Restart" }).click();
  await frame.getByRole("button", { name: "Next event" }).click();
  await expect(frameMirror).toContainText("Model time: 2.00 s");
  await frame.getByRole("combobox", { name: "Speed" }).selectOption("4x");
  await frame.getByRole("button", { name: "Play" }).click();
  await expect(frame.getByRole("button", { name: "Pause" })).toBeVisible();
  await expect
    .poll(async () => Number((await frameMirror.textContent()).match(/Model time: (\S+) s/)[1]), { timeout: 5000 })
    .toBeGreaterThan(2.05);
  await frame.getByRole("button", { name: "Restart" }).click();
  await expect(frameMirror).toContainText("Model time: 0.00 s");
  await expect(frame.getByRole("link", { name: "Open in Idempotency Lab" })).toHaveAttribute("href", /dedup=off/);
});

test("the Embed button offers an iframe snippet for the current run", async ({ page }) => {
  await open(page, "fault=lose-all");
  await page.getByRole("button", { name: "Embed" }).click();
  const snippet = await page.locator("#share-text").inputValue();
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?fault=lose-all&amp;at=0&amp;embed=1" title="[^"]+"/);
});

test("theme, accent and font parameters restyle the page", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await open(page, "theme=dark&accent=aa3300&font=serif");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const styles = await page.evaluate(() => ({
    body: getComputedStyle(document.body).backgroundColor,
    font: getComputedStyle(document.body).fontFamily,
    play: getComputedStyle(document.querySelector("button.play")).backgroundColor,
  }));
  expect(Number(styles.body.match(/\d+/)[0])).toBeLessThan(60);
  expect(styles.font).toContain("Georgia");
  expect(styles.play).toBe("rgb(170, 51, 0)");
  // The theme picker switches at once.
  await page.getByLabel("Theme").selectOption({ label: "Light" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
});

test("with reduced motion there are no transitions and playback still works", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await open(page);
  const duration = await page.evaluate(() => getComputedStyle(document.querySelector("button.play")).transitionDuration);
  expect(duration).toBe("0s");
  await page.getByRole("combobox", { name: "Speed" }).selectOption("4x");
  await page.getByRole("button", { name: "Play" }).click();
  await expect.poll(async () => Number(await modelTime(page)), { timeout: 5000 }).toBeGreaterThan(0);
});

test("export then import reproduces the same run", async ({ page }, testInfo) => {
  await open(page);
  await page.getByLabel("Response fault").selectOption({ label: "Lose all success responses" });
  await page.getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await page.getByLabel("Maximum total attempts").fill("4");
  await page.getByLabel("Deterministic full-jitter example").check();
  await page.getByRole("slider", { name: "Time" }).fill("16000");
  const expected = { mirror: await mirror(page).textContent(), outcome: await figure(page, "Client outcome").textContent() };
  expect(expected.outcome).toBe("exhausted at 16.00 s");

  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export run (JSON)" }).click()]);
  expect(json.suggestedFilename()).toBe("idempotency-lab-run.json");
  const path = join(testInfo.outputDir, json.suggestedFilename());
  await json.saveAs(path);
  const exported = readFileSync(path, "utf8");
  const doc = JSON.parse(exported);
  expect(doc.committed).toBe(4);
  // Byte for byte the command line's document, final newline included.
  const args = ["--fault", "lose-all", "--dedup", "off", "--max-attempts", "4", "--jitter", "full"];
  expect(exported).toBe(execFileSync(cli, ["ack", "--format", "json", ...args], { encoding: "utf8" }));
  expect(doc.settings).toMatchObject({ fault: "lose-all", dedup: "off", max_attempts: 4, jitter: "full" });

  const [svg] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export diagram (SVG)" }).click()]);
  const svgText = readFileSync(await svg.path(), "utf8");
  expect(svgText.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")).toBe(true);
  expect(svgText).toContain("Idempotency Lab timeline");
  expect(svgText).toContain("attempt 4 times out: exhausted");

  await page.getByRole("button", { name: "Reset to opening settings" }).click();
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 4.05 s");
  await page.getByLabel("Import settings").setInputFiles(path);
  await expect(page.locator(".notice")).toContainText("Imported settings from idempotency-lab-run.json.");
  await expect(await endFigure(page, "Client outcome")).toHaveText(expected.outcome);
  await page.getByRole("slider", { name: "Time" }).fill("16000");
  await expect(mirror(page)).toHaveText(expected.mirror);
  await expect(page.getByLabel("Maximum total attempts")).toHaveValue("4");
});

test("the last settings are remembered and reset restores the opening settings", async ({ page }) => {
  await open(page);
  await page.getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  await page.goto("/");
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).not.toBeChecked();
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  await page.getByRole("button", { name: "Reset to opening settings" }).click();
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).toBeChecked();
  await expect(await endFigure(page, "Committed counter")).toHaveText("1");
  await page.goto("/");
  await expect(await endFigure(page, "Committed counter")).toHaveText("1");
});

test("the compact embed shows the playback controls and the diagram in an 800 x 500 frame", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto("/?embed=1&dedup=off");
  await expect(page.getByRole("button", { name: "Play" })).toBeInViewport();
  await expect(page.getByRole("button", { name: "Next event" })).toBeInViewport();
  await expect(page.locator("svg.diagram")).toBeInViewport();
  // The figures and the words are one disclosure away.
  const more = page.locator("details.embed-more");
  await expect(more.getByRole("region", { name: "State as text" })).toBeHidden();
  await more.locator("summary").click();
  await expect(more.getByRole("region", { name: "State as text" })).toBeVisible();
});

test("at 360 px the timeline comes before the settings", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await open(page);
  const timeline = await page.getByRole("region", { name: "Timeline" }).boundingBox();
  const settings = await page.getByRole("region", { name: "Settings" }).boundingBox();
  expect(timeline.y).toBeLessThan(settings.y);
});
