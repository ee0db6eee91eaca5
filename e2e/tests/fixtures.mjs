// Shared helpers. Every test fails if the page logs a console error or
// throws: "no console errors" is checked everywhere, not in one place.
import { createRequire } from "node:module";
import { test as base, expect } from "@playwright/test";

export const test = base.extend({
  page: async ({ page }, use) => {
    const problems = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.problems = problems;
    await use(page);
    expect(problems, "console errors and page errors").toEqual([]);
  },
});

export { expect };

export const port = Number(process.env.E2E_PORT ?? 47801);
export const hostOrigin = `http://localhost:${port + 1}`;

/** Opens the app (with an optional query) and waits for the first render. */
export async function open(page, query = "") {
  await page.goto(query ? `/?${query}` : "/");
  await labStarted(page);
  await openEmbedDetails(page);
  await expect(mirror(page)).toContainText("Model time:");
}

/** Stops the page's fake clock (installed with `page.clock.install()`
 * before the page opened) so that only `page.clock.runFor` moves it: a test
 * that plays for a stretch then reads exactly that stretch, however slowly
 * the machine answers between steps. The pause lies a minute ahead (a
 * moment already past would be refused), and a second of frames and timers
 * then lets the panels built after the first paint finish, as they would
 * on a running clock. */
export async function holdClock(page) {
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 60_000));
  await page.clock.runFor(1_000);
}

/** Waits until the live lab has replaced the opening run the page is
 * written with (and the loading notice that stands in for it). */
export async function labStarted(page) {
  await expect(page.locator(".prerendered, .lab-loading")).toHaveCount(0);
}

/** In the compact embed, the figures and the words are one disclosure
 * away; opens it (a no-op on the full page). */
export async function openEmbedDetails(page) {
  const more = page.locator("details.embed-more");
  await page.locator("svg.diagram").first().waitFor();
  if ((await more.count()) > 0 && !(await more.evaluate((d) => d.open))) {
    await more.locator("summary").click();
  }
}

/** The text mirror, found by its accessible name. */
export function mirror(page) {
  return page.getByRole("region", { name: "State as text" }).locator("pre");
}

/** The results strip: the figures at the playhead. */
export function results(page) {
  return page.getByRole("region", { name: "At the playhead" });
}

/** The results strip's value for a figure, e.g. "Committed counter". */
export function figure(page, name) {
  return results(page).locator(".figure", { hasText: name }).locator("dd");
}

/** Moves the playhead to the end of the run (the Time slider's End key). */
export async function toEnd(page) {
  await page.getByRole("slider", { name: "Time" }).press("End");
}

/** The results strip's figure `name` at the end of the run: the playhead
 * moved there first (the strip reads at the playhead). */
export async function endFigure(page, name) {
  await toEnd(page);
  return figure(page, name);
}

export async function modelTime(page) {
  const text = await mirror(page).textContent();
  return text.match(/Model time: (\d+\.\d{2,3}) s/)[1];
}

/** Waits until the mirror says the playhead is at model time `t` ("2.05"). */
export async function expectModelTime(page, t) {
  await expect(mirror(page)).toContainText(`Model time: ${t} s`);
}

// The serious and critical accessibility violations axe finds on the page
// as it stands, one line each (an empty list is a pass).
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
export async function seriousViolations(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
  });
}

// The sizes a reader meets the labs at: a phone, a laptop and a projector
// (or a big screen).
export const SIZES = [
  { name: "360 x 740", viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
  { name: "1280 x 800", viewport: { width: 1280, height: 800 } },
  { name: "1920 x 1080", viewport: { width: 1920, height: 1080 } },
];

/** Whether all of `locator`'s box is in the window: seen without scrolling. */
export async function inView(page, locator) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  return Boolean(box) && box.y >= -0.5 && box.x >= -0.5 && box.y + box.height <= height + 0.5 && box.x + box.width <= width + 0.5;
}

/** A toolbar button, from the "Share and files" menu where a phone folds
 * the toolbar. */
export async function toolbarButton(page, name) {
  const toolbar = page.getByRole("navigation", { name: "Share and files" });
  // (The storm lab's masthead has its buttons alone.)
  if ((await toolbar.count()) === 0) return page.getByRole("button", { name, exact: true });
  const toggle = page.getByRole("button", { name: "Share and files" });
  if (await toggle.isVisible()) await toggle.click();
  return toolbar.getByRole("button", { name, exact: true });
}
