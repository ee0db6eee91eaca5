// The inspector as students and instructors use it: settings, the results
// strip, playback, the text regions, experiments and the chart.
import { test, expect, open, mirror, results, figure, endFigure, modelTime, expectModelTime, holdClock } from "./fixtures.mjs";

test("the opening run ends succeeded with counter 1 at 4.05 s", async ({ page }) => {
  await open(page);
  await expect(await endFigure(page, "Committed counter")).toHaveText("1");
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 4.05 s");
  await expect(await endFigure(page, "Deduplication hits")).toHaveText("1");
  // Step to the end: the mirror tells the same story in words.
  const next = page.getByRole("button", { name: "Next event" });
  for (let i = 0; i < 6; i++) await next.click();
  await expect(mirror(page)).toContainText("Model time: 4.05 s");
  await expect(mirror(page)).toContainText("Client outcome: succeeded at 4.05 s");
  await expect(mirror(page)).toContainText("Committed counter: 1");
  await expect(results(page)).not.toContainText("disagree");
});

test("clearing deduplication gives counter 2 and the disagreement notice", async ({ page }) => {
  await open(page);
  await page.getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 6.05 s");
  await expect(results(page)).toContainText("The client status and the ledger disagree");
  await page.getByRole("slider", { name: "Time" }).fill("6050");
  await expect(mirror(page)).toContainText("Client and ledger disagree: the client reports one success, but the ledger holds 2 increments.");
});

// Expected answers worked out from MODEL.md (see tests/it/scenarios.rs).
const experiments = [
  ["Lost acknowledgement, deduplication on", "1", "succeeded at 4.05 s"],
  ["Lost acknowledgement, deduplication off", "2", "succeeded at 6.05 s"],
  ["A new key for every attempt", "2", "succeeded at 6.05 s"],
  ["Retention zero", "2", "succeeded at 6.05 s"],
  ["Every success lost, deduplication on", "1", "exhausted at 12.00 s"],
  ["Every success lost, deduplication off", "3", "exhausted at 12.00 s"],
  ["First attempt gets 503", "1", "succeeded at 3.10 s"],
  ["Input rejected with 400", "0", "rejected at 0.05 s"],
  ["Timeout shorter than execution, deduplication off", "3", "exhausted at 6.00 s"],
  ["Timeout shorter than execution, deduplication on", "1", "succeeded at 2.55 s"],
];

for (const [title, counter, outcome] of experiments) {
  test(`experiment: ${title}`, async ({ page }) => {
    await open(page);
    await page.getByRole("button", { name: title }).click();
    const card = page.locator(".experiment-card");
    await expect(card).toContainText("Predict:");
    // The answer stays hidden until the reader commits to a prediction.
    await expect(figure(page, "Committed counter")).toHaveText("?");
    await expect(mirror(page)).toContainText("Model time: 0.00 s");
    await card.getByRole("button", { name: "Just show me" }).click();
    await expect(figure(page, "Committed counter")).toHaveText(counter);
    await expect(figure(page, "Client outcome")).toHaveText(outcome);
    await expect(card.locator(".answer")).toContainText("Answer:");
    await expect(card.locator(".explanation")).not.toBeEmpty();
  });
}

test("a prediction is judged against the run", async ({ page }) => {
  await open(page);
  await page.getByRole("button", { name: "Lost acknowledgement, deduplication off" }).click();
  // Regression: the question used to appear below the list, off-screen.
  const heading = page.locator("#experiment-title");
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  await page.locator(".experiment-card").getByRole("button", { name: "2", exact: true }).click();
  await expect(page.locator(".experiment-card .answer")).toHaveText("Right: 2.");
  await expect(heading).toBeFocused();
  await page.getByRole("button", { name: "Retention zero" }).click();
  await page.locator(".experiment-card").getByRole("button", { name: "1", exact: true }).click();
  await expect(page.locator(".experiment-card .answer")).toHaveText("Not quite: you said 1, the run shows 2.");
  await expect(page.locator(".experiment-card .explanation")).toContainText("executes again: 2 increments");
});

test("next, previous, restart and the time slider move the playhead and the mirror follows", async ({ page }) => {
  await open(page);
  const readout = page.locator(".readout output");
  await expect(readout).toHaveText("Model 0.00 s of 4.05 s · replay 0.0 s of 60.0 s");
  await page.getByRole("button", { name: "Next event" }).click();
  await expectModelTime(page, "2.00");
  await expect(mirror(page)).toContainText("Ledger: 1 increment: 2.00 s by attempt 1 (key intent-1).");
  await page.getByRole("button", { name: "Next event" }).click();
  await expect(mirror(page)).toContainText("Lost responses: attempt 1's success response vanished at 2.05 s.");
  await page.getByRole("button", { name: "Previous event" }).click();
  await expectModelTime(page, "2.00");
  await page.getByRole("button", { name: "Restart" }).click();
  await expectModelTime(page, "0.00");
  // Arrow keys on the slider move a hundredth of the run (40 ms here).
  await page.getByRole("slider", { name: "Time" }).press("ArrowRight");
  await page.getByRole("slider", { name: "Time" }).press("ArrowRight");
  await expectModelTime(page, "0.08");
  await page.getByRole("slider", { name: "Time" }).fill("3500");
  await expect(mirror(page)).toContainText("Client: backing off; attempt 2 goes out at 4.00 s.");
  await expect(readout).toHaveText("Model 3.50 s of 4.05 s · replay 51.9 s of 60.0 s");
  // The recent events list shows what happened up to here, newest first.
  const events = page.getByRole("region", { name: "Recent events" }).getByRole("listitem");
  await expect(events).toHaveCount(5);
  await expect(events.first()).toContainText("3.00 s");
  await events.nth(3).getByRole("button").click();
  await expectModelTime(page, "0.00");
});

test("clicking a drawn event moves the playhead to it", async ({ page }) => {
  await open(page);
  await page.locator("svg.diagram path.mark.lost").click();
  await expectModelTime(page, "2.05");
  await page.locator("svg.diagram text", { hasText: "replayed to attempt 2" }).click();
  await expectModelTime(page, "4.00");
});

test("play advances the playhead over 60 inspection seconds and pause stops it", async ({ page }) => {
  await page.clock.install();
  await open(page);
  await holdClock(page);
  await page.getByRole("combobox", { name: "Speed" }).selectOption("4x");
  await page.getByRole("button", { name: "Play" }).click();
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  // At 4x the 4.05 s replay takes 15 s: 7.5 s in, it is half way through,
  // at 2.025 s (or up to a frame of 16 ms, 0.004 s of the model, short).
  await page.clock.runFor(7_500);
  const halfway = Number(await modelTime(page));
  expect(halfway).toBeGreaterThanOrEqual(2.015);
  expect(halfway).toBeLessThanOrEqual(2.03);
  await page.getByRole("button", { name: "Pause" }).click();
  const paused = await modelTime(page);
  // Ten more seconds of frames and timers move nothing.
  await page.clock.runFor(10_000);
  await expectModelTime(page, paused);
  // Played on, it reaches the end 15 s in and stops there.
  await page.getByRole("button", { name: "Play" }).click();
  await page.clock.runFor(10_000);
  await expectModelTime(page, "4.05");
  await expect(page.getByRole("button", { name: "Play" })).toBeVisible();
});

test("an invalid field shows its message and the app keeps working", async ({ page }) => {
  await open(page);
  const timeout = page.getByLabel("Timeout per attempt");
  await timeout.fill("-3");
  const message = page.locator("#f-timeout-error");
  // A number below the range is out of range; the run keeps its 3 s.
  await expect(message).toHaveText("Not allowed: -3; the run uses 3 s. Timeout per attempt: -3 is out of range; allowed: 0.001 to 600 seconds");
  await expect(timeout).toHaveAttribute("aria-invalid", "true");
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 4.05 s");
  await page.getByLabel("Maximum total attempts").fill("11");
  await expect(page.locator("#f-attempts-error")).toHaveText("Not allowed: 11; the run uses 3. Maximum total attempts: 11 is out of range; allowed: a whole number from 1 to 10");
  // Fixing the value clears the message and recomputes: with a 1 s timeout
  // the retry at 2.00 s joins the operation still in flight.
  await timeout.fill("1");
  await expect(message).toHaveCount(0);
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 2.05 s");
  // Other controls work alongside the field still in error: without
  // deduplication every retry executes and the client gives up at 6.00 s.
  await page.getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await expect(await endFigure(page, "Client outcome")).toHaveText("exhausted at 6.00 s");
  await expect(await endFigure(page, "Committed counter")).toHaveText("3");
});

test("changing a setting keeps the playhead's model time, clamped to the new end", async ({ page }) => {
  await open(page);
  await page.getByRole("slider", { name: "Time" }).fill("3000");
  await page.getByLabel("Server execution time").fill("1");
  await expectModelTime(page, "3.00");
  await page.getByLabel("Response fault").selectOption({ label: "No response fault" });
  // The run now ends when the first response lands at 1.05 s.
  await expectModelTime(page, "1.05");
  await expect(figure(page, "Client outcome")).toHaveText("succeeded at 1.05 s");
});

test("the advanced settings hold the backoff cap and both transit times", async ({ page }) => {
  await open(page);
  await expect(page.getByLabel("Backoff cap")).toBeHidden();
  await page.getByText("Advanced").click();
  await page.getByLabel("Response transit").fill("0");
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 4.00 s");
  await page.getByLabel("Request transit").fill("0.5");
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 4.50 s");
  await expect(page.getByLabel("Backoff cap")).toHaveValue("8");
});

test("the chart describes the counter and the client's successes", async ({ page }) => {
  await open(page, "dedup=off");
  // It is redrawn at its new size when the window changes.
  const svg = page.locator("svg.chart-svg");
  const width = () => svg.evaluate((s) => Number(s.getAttribute("width")));
  const before = await width();
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect.poll(width).toBeGreaterThan(before);
  // Two steps up in the counter's line: at 2.00 s and at 6.00 s.
  expect(((await svg.locator("path.chart-line.counter").getAttribute("d")).match(/V/g) ?? []).length).toBe(2);
  const chart = page.getByRole("img", { name: /committed counter rises to 1 at 2.00 s, 2 at 6.00 s/ });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute("aria-label", /success responses the client received: 1/);
});

for (const width of [360, 1280]) {
  test(`usable at ${width} px wide in light and dark`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, "dedup=off&at=6.05");
      // Only the timeline scrolls sideways; the page itself never does.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r] = background.match(/\d+/g).map(Number);
      expect(scheme === "dark" ? r < 60 : r > 200).toBe(true);
      await page.screenshot({ path: `screenshots/inspector-${width}-${scheme}.png`, fullPage: true });
    }
  });
}
