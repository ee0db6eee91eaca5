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
  await expect(page.locator(".notice").last()).toContainText("binary.json: settings file is UTF-16 text; allowed: UTF-8 text");
  await page.getByLabel("Import settings").setInputFiles({
    name: "latin1.json",
    mimeType: "application/json",
    buffer: Buffer.from([0x7b, 0xe9, 0x7d]),
  });
  await expect(page.locator(".notice").last()).toContainText("latin1.json: settings file is not UTF-8 text; allowed: a JSON object");
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

test("damaged saved settings are reported once, then cleared, and the opening settings are used", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("idempotency-lab.settings.v1", '{"timeout_ms": -1'));
  await open(page);
  await expect(page.locator(".notice")).toContainText("Your saved settings could not be used");
  await expect(await endFigure(page, "Committed counter")).toHaveText("1");
  expect(await page.evaluate(() => localStorage.getItem("idempotency-lab.settings.v1"))).toBeNull();
  // The next visit starts clean, with nothing to say.
  await open(page);
  await expect(mirror(page)).toContainText("Model time:");
  await expect(page.locator(".notice")).toHaveCount(0);
});

test("a file with a byte-order mark reads as without one, and a field named twice is refused by name", async ({ page }) => {
  await open(page);
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  await page.getByLabel("Import settings").setInputFiles({ name: "bom.json", mimeType: "application/json", buffer: Buffer.concat([bom, Buffer.from('{"dedup": "off"}')]) });
  await expect(page.locator(".notice").last()).toHaveText(/Imported settings from bom\.json\./);
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).not.toBeChecked();
  await page.getByLabel("Import settings").setInputFiles({ name: "twice.json", mimeType: "application/json", buffer: Buffer.from('{"dedup": "on", "dedup": "off"}') });
  await expect(page.locator(".notice").last()).toContainText('twice.json: settings file has the field "dedup" more than once; allowed: each field once. Nothing changed.');
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).not.toBeChecked();
});

test("bidirectional controls in a quoted value cannot turn the notice's words around", async ({ page }) => {
  // U+202E (right-to-left override) before the value, U+2066 inside it.
  await page.goto("/?fault=%E2%80%AEenon%E2%81%A6x");
  const notice = page.locator(".notice").first();
  await expect(notice).toContainText('fault: "\ufffdenon\ufffdx" is not a known option; allowed: one of none');
  expect(await notice.evaluate((n) => /[\u202a-\u202e\u2066-\u2069]/.test(n.textContent))).toBe(false);
});

test("a fork point after the run's end is refused from a link and from a file, with a notice", async ({ page }) => {
  // The opening run with deduplication off in run B ends at 4.05 s.
  await page.goto("/?b.dedup=off&fork=99999999.999");
  await expect(page.locator(".notice").first()).toContainText(
    "fork: 99999999.999 s is after the run's end; allowed: a moment from 0 to 4.05 s. Run B is compared without a fork point.",
  );
  await expect(page.getByRole("region", { name: "Run B", exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/fork=/);
  const file = '{"a": {"settings": {}}, "b": {"settings": {"dedup": "off"}}, "fork_ms": 18446744073709551615}';
  await page.getByLabel("Import settings").setInputFiles({ name: "fork.json", mimeType: "application/json", buffer: Buffer.from(file) });
  await expect(page.locator(".notice").last()).toContainText("Imported settings from fork.json.");
  await expect(page.locator(".notice", { hasText: "fork: 18446744073709551.615 s is after the run's end; allowed: a moment from 0 to 4.05 s." })).toHaveCount(1);
  await expect(page).not.toHaveURL(/fork=/);
});

test("a lesson a link cut short says so, naming the lesson and the step, and offers a file", async ({ page }) => {
  // Nine steps in Russian, written into a link before lessons were
  // compressed: longer than the 16 384 bytes a link is read to.
  let text = "Lesson: Повтор запроса\n";
  for (let n = 1; n <= 9; n++) {
    text += `\nStep: Шаг ${n}\nSettings: dedup=off\nAt: 6.05\nQuestion: ${"Сколько раз сервер выполнил операцию после потерянного подтверждения? ".repeat(5)}\nAnswer: Дважды.\n`;
  }
  // (A server refuses so long an address, as this one does; the page that
  // hosts every lab opens it in place, as it opens a lesson's step.)
  await open(page);
  await page.evaluate((query) => window.idempotencyLab.switchTo("ack", query), `?lesson=${encodeURIComponent(text)}`);
  const bar = page.getByRole("region", { name: /^Step 1 of/ });
  await expect(bar).toContainText(/The lesson "Повтор запроса" is too long for a link: the link holds its first (\d) steps and was cut at step (\d)\./);
  const [, held, cut] = (await bar.locator(".lesson-cut").textContent()).match(/first (\d) steps and was cut at step (\d)/);
  expect(Number(cut)).toBe(Number(held) + 1);
  await expect(bar.getByRole("heading")).toHaveText(`Step 1 of ${held}: Шаг 1`);
  const download = page.waitForEvent("download");
  await bar.getByRole("button", { name: "Save the steps it holds as a file" }).click();
  expect((await download).suggestedFilename()).toBe("lesson.lesson");
  // The same lesson imported from its file fits a link whole, compressed.
  await page.getByLabel("Import settings").setInputFiles({ name: "russian.lesson", mimeType: "text/plain", buffer: Buffer.from(text) });
  await expect(page.getByRole("heading", { name: "Step 1 of 9: Шаг 1" })).toBeVisible();
  await expect(page.locator(".lesson-cut")).toHaveCount(0);
  expect(page.url().length).toBeLessThan(16_384);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Step 1 of 9: Шаг 1" })).toBeVisible();
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
  for (let i = 0; i < 300; i++) {
    if (await page.locator("dialog[open]").count()) await page.keyboard.press("Escape");
    const roll = random();
    if (roll < 0.3) {
      await act(page.getByLabel(pick(textFields)), (l) => l.fill(pick(oddValues), { timeout: 3000 }));
    } else if (roll < 0.55) {
      await act(page.getByRole("button", { name: pick(buttons), exact: true }).first(), (l) => l.click({ timeout: 3000 }));
    } else if (roll < 0.65) {
      const index = Math.floor(random() * 5);
      await act(page.getByLabel("Response fault"), (l) => l.selectOption({ index }, { timeout: 3000 }));
    } else if (roll < 0.72) {
      await act(page.getByLabel(pick(["Server deduplicates operation keys (idempotency keys)", "Deterministic full-jitter example"])), (l) => l.click({ timeout: 3000 }));
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
