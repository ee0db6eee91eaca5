// Keyboard-only use, shortcuts and what a screen reader hears.
import { test, expect, open, mirror, modelTime, expectModelTime, holdClock } from "./fixtures.mjs";

/** The accessible name of the focused element, as a label or its text. */
async function focusedName(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const label = el.labels && el.labels[0] ? el.labels[0].textContent : null;
    return (label ?? el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
  });
}

test("keyboard-only use reaches every control, with focus always visible", async ({ page }) => {
  await open(page);
  await page.getByText("Advanced").click(); // open the disclosure so its fields are reachable
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  const seen = new Set();
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    const name = await focusedName(page);
    if (name === null) continue;
    seen.add(name);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    expect(outline, `focus on "${name}" must be visible`).not.toBe("none");
  }
  for (const name of [
    "Response fault",
    "Server deduplicates operation keys (idempotency keys)",
    "Retry key",
    "Stored-result retention",
    "Timeout per attempt",
    "Server execution time",
    "Maximum total attempts",
    "Initial retry delay",
    "Deterministic full-jitter example",
    "Advanced",
    "Backoff cap",
    "Request transit",
    "Response transit",
    "Play",
    "Previous event",
    "Next event",
    "Restart",
    "Speed",
    "Time",
    "Copy link",
    "Import settings or a lesson",
    "Lost acknowledgement, deduplication on",
  ]) {
    expect([...seen], `Tab never reached "${name}"`).toContain(name);
  }
});

test("shortcuts play, step and restart, but not while typing", async ({ page }) => {
  await open(page);
  await page.keyboard.press("ArrowRight");
  await expectModelTime(page, "2.00");
  await page.keyboard.press("ArrowRight");
  await expectModelTime(page, "2.05");
  await page.keyboard.press("ArrowLeft");
  await expectModelTime(page, "2.00");
  await page.keyboard.press("Home");
  await expectModelTime(page, "0.00");
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "Play" })).toBeVisible();
  await page.keyboard.press("Home");
  // Away from both ends, where ArrowLeft and Home would each show a change.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expectModelTime(page, "2.05");

  // Typing in a field: keys belong to the field.
  const field = page.getByLabel("Initial retry delay");
  await field.fill("");
  await field.press("2");
  await field.press("Space");
  await field.press("ArrowLeft");
  await field.press("Home");
  await field.press("ArrowRight");
  await expectModelTime(page, "2.05");
  await expect(page.getByRole("button", { name: "Play" })).toBeVisible();
  await expect(field).toHaveValue("2 ");
});

test("? opens the shortcuts dialog and Escape closes it", async ({ page }) => {
  await open(page);
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Play or pause");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("each step is announced once in a polite live region; playing does not flood it", async ({ page }) => {
  await page.clock.install();
  await open(page);
  await holdClock(page);
  const live = page.locator("[aria-live=polite]");
  await page.getByRole("button", { name: "Next event" }).click();
  await expect(live).toHaveText(/^2\.00 s: Attempt 1's operation commits/);
  await page.keyboard.press("ArrowRight");
  await expect(live).toHaveText(/^2\.05 s: Attempt 1's success response is lost/);
  await page.getByRole("slider", { name: "Time" }).fill("4050");
  // The slider keeps the arrow keys while it has focus; step from the page.
  await page.locator("h1").click();
  await page.keyboard.press("ArrowRight");
  await expect(live).toHaveText("End of the run at 4.05 s.");
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowLeft");
  await expect(live).toHaveText("Start of the run.");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(live).toHaveText(/^2\.05 s: /);
  const before = await live.textContent();
  await page.getByRole("combobox", { name: "Speed" }).selectOption("4x");
  await page.getByRole("button", { name: "Play" }).click();
  // At 4x the 4.05 s replay takes 15 s: 6 s of playing goes from 2.05 s to
  // about 3.67 s, past the timeout at 3.00 s and before the retry at 4.00 s.
  await page.clock.runFor(6_000);
  await page.getByRole("button", { name: "Pause" }).click();
  const reached = Number(await modelTime(page));
  // 6 s is 6/15 of the replay, 1.62 s of the model: 3.67 s (or a frame short).
  expect(reached).toBeGreaterThan(3.65);
  expect(reached).toBeLessThanOrEqual(3.67);
  await expect(mirror(page)).toContainText("Client: backing off; attempt 2 goes out at 4.00 s.");
  // Playing crossed the timeout without announcing it.
  await expect(live).toHaveText(before);
});
