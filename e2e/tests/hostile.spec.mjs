// Bad and hostile input: broken links, malformed files, damaged storage,
// and a few hundred random interactions.
import { test, expect, open, mirror, figure, endFigure } from "./fixtures.mjs";

test("a broken link gets notices, keeps every good parameter and shows values as text", async ({ page }) => {
  const evil = "<img src=x onerror=alert(1)>";
  await page.goto(`/?dedup=off&timeout=abc&fault=${encodeURIComponent(evil)}&attempts=99&utm_source=x&at=999`);
  const notices = page.locator(".notice");
  await expect(notices).toHaveCount(4);
  await expect(notices.nth(0)).toContainText('timeout: "abc" is not a number of seconds with at most three decimals; allowed: 0.001 to 600 seconds');
  await expect(notices.nth(1)).toContainText(`fault: "${evil}" is not a known option; allowed: one of none, lose-first, lose-all, first-503, reject-400`);
  await expect(notices.nth(2)).toContainText("attempts: 99 is out of range; allowed: a whole number from 1 to 10");
  await expect(notices.nth(3)).toContainText("at: 999 s is past the end of this run");
  await expect(page.locator(".notices img")).toHaveCount(0);
  // The good parameter survived; the bad ones fell back to their defaults.
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).not.toBeChecked();
  await expect(page.getByLabel("Timeout per attempt")).toHaveValue("3");
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  await expect(mirror(page)).toContainText("Model time: 6.05 s");
  await notices.nth(0).getByRole("button", { name: "Dismiss" }).click();
  await expect(notices).toHaveCount(3);
});

const badFiles = [
  ["range.json", '{"max_attempts": 0}', "range.json: settings file field max_attempts: 0 is out of range; allowed: a whole number from 1 to 10. Nothing changed."],
  ["text.json", "retry everything", "text.json: settings file is not valid JSON"],
  ["field.json", '{"<b>bold</b>": 1}', 'field.json: settings file has an unknown field "<b>bold</b>"; allowed: fault, dedup'],
  ["type.json", '{"exec_ms": [1, 2]}', "type.json: settings file field exec_ms is an array; allowed: a whole number of milliseconds from 0 to 600000"],
  ["array.json", "[1, 2, 3]", "array.json: settings file is valid JSON but not an object"],
];

test("malformed or out-of-range settings files get a message and change nothing", async ({ page }) => {
  await open(page, "dedup=off");
  for (const [name, body, message] of badFiles) {
    await page.getByLabel("Import settings").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(body) });
    await expect(page.locator(".notice").last()).toContainText(message);
  }
  await page.getByLabel("Import settings").setInputFiles({
    name: "binary.json",
    mimeType: "application/octet-stream",
    buffer: Buffer.from([0xff, 0xfe, 0x00, 0x81]),
  });
  await expect(page.locator(".notice").last()).toContainText("binary.json: settings file is not valid JSON");
  await page.getByLabel("Import settings").setInputFiles({
    name: "huge.json",
    mimeType: "application/json",
    buffer: Buffer.alloc(2 * 1024 * 1024, 0x20),
  });
  await expect(page.locator(".notice").last()).toContainText("huge.json: the file is 2097152 bytes; allowed: a JSON settings file or a lesson of at most 1048576 bytes");
  await expect(page.locator(".notices b")).toHaveCount(0);
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).not.toBeChecked();
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
});

test("damaged saved settings are reported and the opening settings are used", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("idempotency-lab.settings.v1", '{"timeout_ms": -1'));
  await open(page);
  await expect(page.locator(".notice")).toContainText("Your saved settings could not be used");
  await expect(await endFigure(page, "Committed counter")).toHaveText("1");
});

/** A small seeded generator, so a failing sequence can be replayed. */
function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const oddValues = ["", " ", "-1", "0", "0.0001", "1e3", "abc", "９", "<b>x</b>", "1".repeat(300), "600", "600.001", "2.5", "86400", "86401", "10", "11", "3", "0.05", "NaN", "Infinity", "1,5", "\u0000"];
const textFields = ["Stored-result retention", "Timeout per attempt", "Server execution time", "Maximum total attempts", "Initial retry delay"];
const buttons = ["Play", "Pause", "Previous event", "Next event", "Restart", "Lost acknowledgement, deduplication off", "Retention zero", "Every success lost, deduplication on", "Input rejected with 400", "Just show me", "Close experiment", "Reset to opening settings", "Copy link", "Dismiss"];
const keys = ["Space", "ArrowLeft", "ArrowRight", "Home", "?", "Escape", "Tab"];

test("a few hundred random interactions leave no error and a consistent page", async ({ page, context }) => {
  // About 30 s on a quiet machine; room for a slower one.
  test.setTimeout(240_000);
  const seed = Number(process.env.MONKEY_SEED ?? 20261130);
  const random = mulberry32(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  await open(page);
  await page.getByText("Advanced").click();
  // A control is acted on only when it is there and can be used (a button
  // an earlier action hid, such as Close experiment with none open, is
  // skipped and counted); any action on a control that is there must
  // succeed.
  const usable = async (locator) => (await locator.count()) > 0 && (await locator.isVisible()) && (await locator.isEnabled());
  let acted = 0;
  let skipped = 0;
  const act = async (locator, action) => {
    if (!(await usable(locator))) return skipped++;
    try {
      await action(locator);
    } catch (e) {
      // Playback ending between the look and the click turns Pause into
      // Play: a control gone meanwhile is a skip; one still there that
      // did not answer is a failure.
      if (!String(e).includes("Timeout") || (await usable(locator))) throw e;
      return skipped++;
    }
    acted++;
  };
  // The settings' own controls: an experiment's "Try it" may show a second
  // control for a setting it names.
  const settings = page.getByRole("region", { name: "Settings" });
  for (let i = 0; i < 300; i++) {
    if (await page.locator("dialog[open]").count()) await page.keyboard.press("Escape");
    const roll = random();
    if (roll < 0.3) {
      await act(settings.getByLabel(pick(textFields)), (l) => l.fill(pick(oddValues), { timeout: 3000 }));
    } else if (roll < 0.55) {
      await act(page.getByRole("button", { name: pick(buttons), exact: true }).first(), (l) => l.click({ timeout: 3000 }));
    } else if (roll < 0.65) {
      const index = Math.floor(random() * 5);
      await act(settings.getByLabel("Response fault"), (l) => l.selectOption({ index }, { timeout: 3000 }));
    } else if (roll < 0.72) {
      await act(settings.getByLabel(pick(["Server deduplicates operation keys (idempotency keys)", "Deterministic full-jitter example"])), (l) => l.click({ timeout: 3000 }));
    } else if (roll < 0.8) {
      const value = String(Math.floor(random() * 20000));
      await act(page.getByRole("slider", { name: "Time" }), (l) => l.fill(value, { timeout: 3000 }));
    } else if (roll < 0.9) {
      await page.locator("body").press(pick(keys));
      acted++;
    } else {
      const marks = page.locator("svg.diagram path.clickable:not(.future)");
      const count = await marks.count();
      const nth = Math.floor(random() * Math.max(count, 1));
      if (count) await marks.nth(nth).click({ force: true });
      if (count) acted++;
      else skipped++;
    }
  }
  // Most of the actions found their control.
  expect(acted, `${acted} acted, ${skipped} skipped`).toBeGreaterThan(200);
  if (await page.locator("dialog[open]").count()) await page.keyboard.press("Escape");
  const pause = page.getByRole("button", { name: "Pause" });
  if (await pause.isVisible()) await pause.click();

  // The mirror agrees with the settings shown wherever a field is valid.
  const text = await mirror(page).textContent();
  const dedup = await page.getByLabel("Server deduplicates operation keys (idempotency keys)").isChecked();
  expect(text.includes("Deduplication: off;")).toBe(!dedup);
  if ((await page.locator("#f-attempts-error").count()) === 0) {
    const attempts = await page.getByLabel("Maximum total attempts").inputValue();
    expect(text).toContain(`of at most ${attempts}`);
  }
  // And a link to this state reproduces it exactly in a fresh page.
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await page.locator("#share-text").inputValue();
  const fresh = await context.newPage();
  fresh.on("pageerror", (e) => page.problems.push(`fresh page error: ${e.message}`));
  await fresh.goto(link);
  await expect(mirror(fresh)).toHaveText(await mirror(page).textContent());
});
