// The opening page hosts every lab: the Lab switcher unmounts the lab on
// screen and mounts the chosen one in its place. Each lab's settings,
// playhead and theme travel in the address, so coming back to a lab, or
// going Back, shows it as it was left.
import { test, expect, mirror, seriousViolations, labStarted, holdClock, modelTime } from "./fixtures.mjs";

const lab = (page) => page.getByLabel("Lab", { exact: true });
/** Ids that more than one element in the page has. */
const duplicateIds = (page) =>
  page.evaluate(() => {
    const ids = Array.from(document.querySelectorAll("[id]"), (el) => el.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
const riskMirror = (page) => mirror(page).filter({ hasText: "Risk-review lab" });
const ackMirror = (page) => mirror(page).filter({ hasNotText: "Risk-review lab" });
const totals = (page) => page.getByRole("region", { name: "Totals" });

/** After a switch: one lab in the page, and no id in it twice. */
async function oneLab(page) {
  await expect(page.locator(".lab-root")).toHaveCount(1);
  await expect(page.locator(".app")).toHaveCount(1);
  expect(await duplicateIds(page)).toEqual([]);
}

test("switching between all three labs and back keeps each lab's settings and playhead", async ({ page }) => {
  await page.goto("/?dedup=off&at=4.05");
  await expect(ackMirror(page)).toContainText("Model time: 4.05 s");
  const ackText = await mirror(page).textContent();

  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toContainText("preset incident, mode naive");
  await expect(page).toHaveURL(/\/\?lab=risk$/);
  await expect(page).toHaveTitle("Idempotency Lab: the risk-review incident");
  await oneLab(page);
  await page.getByLabel("Preset", { exact: true }).selectOption("forged-order");
  await page.locator("h1").click();
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/lab=risk&preset=forged-order&at=0\.02/);
  const riskText = await mirror(page).textContent();

  await lab(page).selectOption("storms");
  await expect(totals(page)).toContainText("Intents", { timeout: 20_000 });
  await oneLab(page);
  await page.getByLabel("Clients", { exact: true }).fill("300");
  await expect(page).toHaveURL(/lab=storms&clients=300/);
  await expect(totals(page)).toContainText("300");

  // From the keyboard: the switcher has the focus, and the new lab's
  // switcher takes it.
  await lab(page).focus();
  await lab(page).selectOption("ack");
  await expect(mirror(page)).toHaveText(ackText);
  await expect(page).toHaveURL(/\/\?dedup=off&at=4\.05$/);
  await expect(lab(page)).toBeFocused();
  await expect(lab(page)).toHaveValue("ack");
  await oneLab(page);

  await lab(page).selectOption("risk");
  await expect(mirror(page)).toHaveText(riskText);
  await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("forged-order");
  await lab(page).selectOption("storms");
  await expect(page.getByLabel("Clients", { exact: true })).toHaveValue("300");

  // Back walks the switches in reverse, each lab as it was.
  await page.goBack();
  await expect(mirror(page)).toHaveText(riskText);
  await page.goBack();
  await expect(mirror(page)).toHaveText(ackText);
  await page.goForward();
  await expect(mirror(page)).toHaveText(riskText);
  await oneLab(page);
});

test("run B is in each lab's one bundle: Compare with… downloads nothing new", async ({ page }) => {
  for (const query of ["", "lab=risk"]) {
    await page.goto(`/?${query}`);
    await expect(mirror(page)).toContainText("Model time");
    await page.waitForLoadState("networkidle");
    const later = [];
    // (Chromium fetches the page's icon again when the address changes.)
    page.on("request", (r) => new URL(r.url()).pathname !== "/favicon.svg" && later.push(new URL(r.url()).pathname));
    await page.getByRole("button", { name: "Compare with…" }).click();
    await expect(page.getByRole("region", { name: "Differences" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Run B", exact: true })).toBeVisible();
    expect(later, `${query || "first lab"}: nothing more to download`).toEqual([]);
    page.removeAllListeners("request");
  }
});

test("a lab's bundle is fetched when the pointer reaches the switcher, before the switch", async ({ page }) => {
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto("/");
  await expect(ackMirror(page)).toBeVisible();
  await page.waitForLoadState("networkidle");
  // Nothing of the other labs before the pointer comes near.
  expect(fetched.filter((p) => p.startsWith("/risk/") || p.startsWith("/storms/"))).toEqual([]);
  await lab(page).hover();
  await expect.poll(() => fetched).toEqual(expect.arrayContaining(["/risk/risk_bg.wasm", "/storms/storms_bg.wasm"]));
  const before = fetched.length;
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  expect(fetched.slice(before).filter((p) => p.endsWith(".wasm"))).toEqual([]);
});

test("a dialog open in a lab is gone when Forward shows the other lab", async ({ page }) => {
  await page.goto("/?dedup=off");
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  await page.goBack();
  await expect(ackMirror(page)).toContainText("Model time:");
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.goForward();
  await expect(riskMirror(page)).toBeVisible();
  await expect(page.locator("dialog[open]")).toHaveCount(0);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // The risk lab answers the pointer and the keyboard.
  await page.getByLabel("Preset", { exact: true }).selectOption("forged-order");
  await expect(page).toHaveURL(/preset=forged-order/);
});

test("each lab comes back to its place on the page", async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 600 });
  // The heading of the panel at the top of the window, and where it starts.
  const topPanel = () =>
    page.evaluate(() => {
      for (const h of document.querySelectorAll(".stage .panel h2")) {
        const box = h.closest(".panel").getBoundingClientRect();
        if (box.bottom > 0) return `${h.textContent} at ${Math.round(box.top)}`;
      }
      return null;
    });
  await page.goto("/");
  await expect(ackMirror(page)).toBeVisible();
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  const riskPlace = await topPanel();
  expect(riskPlace).not.toMatch(/^Timeline/);
  // Switch by script: the switcher sits at the top of the page.
  await page.evaluate(() => window.idempotencyLab.switchTo("ack"));
  await expect(ackMirror(page)).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.evaluate(() => window.idempotencyLab.switchTo("risk"));
  await expect(riskMirror(page)).toBeVisible();
  await expect.poll(topPanel).toBe(riskPlace);
});

test("a lab left while playing comes back paused at the moment it was left", async ({ page }) => {
  await page.clock.install();
  await page.goto("/");
  await expect(ackMirror(page)).toBeVisible();
  await holdClock(page);
  await page.getByRole("combobox", { name: "Speed" }).selectOption("4x");
  await page.getByRole("button", { name: "Play", exact: true }).click();
  // At 4x the 4.05 s replay takes 15 s: 7.5 s in, it is half way through,
  // at 2.025 s (or up to a frame of 16 ms, 0.004 s of the model, short).
  await page.clock.runFor(7_500);
  const left = Number(await modelTime(page));
  expect(left).toBeGreaterThanOrEqual(2.015);
  expect(left).toBeLessThanOrEqual(2.03);
  await lab(page).selectOption("risk");
  await page.clock.runFor(1_000);
  await expect(riskMirror(page)).toBeVisible();
  await lab(page).selectOption("ack");
  await page.clock.runFor(1_000);
  await expect(page.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  await expect(mirror(page)).toContainText(`Model time: ${left.toFixed(3).replace(/0$/, "")} s`);
  expect(Number(await modelTime(page))).toBe(left);
  // Twenty more seconds of frames and timers move nothing.
  await page.clock.runFor(20_000);
  expect(Number(await modelTime(page))).toBe(left);
});

test("keys reach only the lab on screen", async ({ page }) => {
  await page.goto("/");
  await expect(ackMirror(page)).toContainText("Model time: 0.00 s");
  const ackText = await mirror(page).textContent();
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  const riskBefore = await mirror(page).textContent();
  await page.locator("h1").click();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(mirror(page)).not.toHaveText(riskBefore);
  await lab(page).selectOption("ack");
  await expect(mirror(page)).toHaveText(ackText);
});

test("the reader's theme comes along to the other lab, both ways", async ({ page }) => {
  await page.goto("/");
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  await page.getByLabel("Theme").selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await lab(page).selectOption("ack");
  await expect(page.getByLabel("Theme")).toHaveValue("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page).toHaveURL(/theme=dark/);
  await page.getByLabel("Theme").selectOption("light");
  await lab(page).selectOption("risk");
  await expect(page.getByLabel("Theme")).toHaveValue("light");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
});

test("leaving the storm lab ends its worker", async ({ page }) => {
  await page.goto("/?lab=storms");
  await labStarted(page);
  await expect(totals(page)).toContainText("Intents", { timeout: 20_000 });
  expect(page.workers().length).toBeGreaterThan(0);
  await lab(page).selectOption("ack");
  await expect(ackMirror(page)).toBeVisible();
  await expect.poll(() => page.workers().length).toBe(0);
});

test("a lab that cannot be loaded gets a notice, and the lab on screen still works", async ({ page }) => {
  await page.route("**/risk/risk.js", (route) => route.abort());
  await page.goto("/?dedup=off");
  await expect(ackMirror(page)).toBeVisible();
  await lab(page).selectOption("risk");
  await expect(page.getByRole("alert")).toContainText("The risk lab could not be loaded");
  await expect(lab(page)).toHaveValue("ack");
  await expect(page).toHaveURL(/\/\?dedup=off$/);
  await page.getByRole("button", { name: "Next event" }).click();
  await expect(ackMirror(page)).toContainText("Model time: 2.00 s");
  // The one error is the request the test made fail; nothing else went wrong.
  expect(page.problems).toEqual(["console error: Failed to load resource: net::ERR_FAILED"]);
  page.problems.length = 0;
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });
  test("axe finds no serious or critical violations after switching labs back and forth", async ({ page }) => {
    await page.goto("/");
    await lab(page).selectOption("risk");
    await expect(riskMirror(page)).toBeVisible();
    await lab(page).selectOption("ack");
    await expect(ackMirror(page)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await lab(page).selectOption("risk");
    await expect(riskMirror(page)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

// Every control and note in the settings lies inside its panel, on a
// desktop and on a phone: none is cut off at the panel's edge (the risk
// lab's pattern switches, in a fieldset, once were).
for (const [name, viewport] of [
  ["1280 x 900", { width: 1280, height: 900 }],
  ["360 x 740", { width: 360, height: 740 }],
]) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport });
    for (const query of ["", "lab=risk&preset=incident&mode=naive", "lab=storms"]) {
      test(`the settings of ${query || "the first lab"} lie inside their panel`, async ({ page }) => {
        await page.goto(`/?${query}`);
        await labStarted(page);
        const panel = page.getByRole("region", { name: "Settings" });
        await expect(panel.getByRole("combobox").first()).toBeVisible();
        // Every disclosure open: what it holds must fit too.
        const closed = panel.locator("details:not([open]) > summary");
        while ((await closed.count()) > 0) await closed.first().click();
        const outside = await panel.evaluate((p) => {
          const box = p.getBoundingClientRect();
          return [...p.querySelectorAll("*")]
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
            })
            .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute("class")}`);
        });
        expect(outside).toEqual([]);
      });
    }
  });
}
