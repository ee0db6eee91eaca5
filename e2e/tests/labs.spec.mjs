// The opening page hosts every lab: the Lab switcher shows another lab in
// place, each lab keeps its state while set aside, and only the shown lab
// owns the address, the keys, the theme and the page's ids.
import { test, expect, mirror, modelTime, seriousViolations } from "./fixtures.mjs";

const lab = (page) => page.getByLabel("Lab", { exact: true });
/** Ids that more than one element in the page has. */
const duplicateIds = (page) =>
  page.evaluate(() => {
    const ids = Array.from(document.querySelectorAll("[id]"), (el) => el.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
/** Chromium's own accessible names of the page's comboboxes. */
async function comboboxNames(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  await cdp.detach();
  return nodes.filter((n) => !n.ignored && n.role?.value === "combobox").map((n) => n.name?.value);
}
const riskMirror = (page) => mirror(page).filter({ hasText: "Risk-review lab" });
const ackMirror = (page) => mirror(page).filter({ hasNotText: "Risk-review lab" });

test("switching labs keeps each lab's state and address, and back returns to the lab before", async ({ page }) => {
  await page.goto("/?dedup=off&at=4.05");
  await expect(ackMirror(page)).toContainText("Model time: 4.05 s");
  const ackText = await mirror(page).textContent();

  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toContainText("preset incident, mode naive");
  await expect(page).toHaveURL(/\/\?lab=risk/);
  await expect(page).toHaveTitle("Idempotency Lab: the risk-review incident");
  await page.getByLabel("Preset", { exact: true }).selectOption("forged-order");
  await expect(page).toHaveURL(/preset=forged-order/);
  // The first lab stays in the page, set aside and hidden.
  await expect(page.locator(".app:visible")).toHaveCount(1);
  await expect(page.locator(".app")).toHaveCount(2);
  expect(await duplicateIds(page)).toEqual([]);

  // From the keyboard: the switcher has the focus, and the new lab's
  // switcher takes it.
  await lab(page).focus();
  await lab(page).selectOption("ack");
  await expect(mirror(page)).toHaveText(ackText);
  await expect(page).toHaveURL(/dedup=off/);
  await expect(page).toHaveURL(/at=4\.05/);
  await expect(lab(page)).toBeFocused();
  await expect(lab(page)).toHaveValue("ack");

  await lab(page).selectOption("risk");
  await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("forged-order");
  await expect(page).toHaveURL(/lab=risk&preset=forged-order/);

  await page.goBack();
  await expect(mirror(page)).toHaveText(ackText);
  await page.goForward();
  await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("forged-order");
  // After Back and Forward, the switcher still gives each lab its own address.
  await lab(page).selectOption("ack");
  await expect(mirror(page)).toHaveText(ackText);
  await expect(page).not.toHaveURL(/lab=risk/);
  await lab(page).selectOption("risk");
  await expect(page).toHaveURL(/lab=risk&preset=forged-order/);
});

test("every lab made ready stays in the page, hidden, and the shown lab owns every id and label", async ({ page }) => {
  await page.goto("/?dedup=off");
  await expect(ackMirror(page)).toContainText("Model time:");
  // Reaching for the switcher makes the other labs ready; the storm lab
  // runs its first storm out of sight.
  await lab(page).hover();
  await expect(page.locator(".app")).toHaveCount(3);
  // The risk and storm labs share ids the first lab does not have: they
  // are parked in both, as they are set aside.
  await expect.poll(() => duplicateIds(page)).toEqual([]);
  await expect(page.locator(".storms .totals")).toContainText("Intents", { timeout: 20_000 });
  expect(await duplicateIds(page)).toEqual([]);
  for (const [to, shown] of [
    ["storms", page.getByRole("region", { name: "Totals" })],
    ["risk", riskMirror(page)],
    ["ack", ackMirror(page)],
  ]) {
    await lab(page).selectOption(to);
    await expect(shown).toBeVisible();
    await expect(page.locator(".app:visible")).toHaveCount(1);
    // Ids the labs share (the switcher's, the theme's, settings fields)
    // are parked in the labs set aside.
    const ids = await page.evaluate(() => Array.from(document.querySelectorAll("[id]"), (el) => el.id));
    expect(ids).toContain("lab-switch");
    expect(ids.filter((id) => id.startsWith("parked-")).length).toBeGreaterThan(3);
    expect(await duplicateIds(page)).toEqual([]);
    // Exactly one control is named "Lab", and only by its own label.
    expect(await page.evaluate(() => document.getElementById("lab-switch").labels.length)).toBe(1);
    expect((await comboboxNames(page)).filter((name) => name?.startsWith("Lab"))).toEqual(["Lab"]);
    // What a lab set aside holds is out of reach: it takes no focus, and
    // the Tab key never lands in it.
    expect(
      await page.evaluate(() => {
        const hidden = document.querySelector(".lab-aside select");
        hidden.focus();
        return document.activeElement === hidden;
      }),
    ).toBe(false);
    await lab(page).focus();
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement.closest(".lab-aside")))).toBe(false);
    }
  }
});

test("page parts a lab adds after it was set aside or shown never share an id with another lab", async ({ page }) => {
  // The first lab's share box (its label and text have ids) stays in it,
  // set aside, when the reader turns to the risk lab.
  await page.goto("/?dedup=off");
  await expect(ackMirror(page)).toContainText("Model time:");
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("group", { name: "Link to this run and moment" })).toBeVisible();
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  // The risk lab's own share box comes later, with the same ids.
  await page.getByRole("button", { name: "Copy link" }).click();
  const box = page.getByRole("group", { name: "Link to this run and moment" });
  await expect(box).toBeVisible();
  await expect.poll(() => duplicateIds(page)).toEqual([]);
  // Its text is named by its own label and holds the risk lab's link.
  const text = box.getByRole("textbox", { name: "Link to this run and moment" });
  await expect(text).toHaveValue(/lab=risk/);
  expect(await page.evaluate(() => document.getElementById("share-text").closest("[data-lab-root]").dataset.labRoot)).toBe(
    "risk",
  );
});

test("a dialog open in a lab closes when Forward sets the lab aside", async ({ page }) => {
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
  // The risk lab answers the pointer and the keyboard.
  await page.getByLabel("Preset", { exact: true }).selectOption("forged-order");
  await expect(page).toHaveURL(/preset=forged-order/);
});

test("each lab keeps its place on the page", async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 600 });
  // The heading of the first panel that starts in view, and where.
  const topPanel = () =>
    page.evaluate(() => {
      for (const h of document.querySelectorAll(".stage .panel h2")) {
        if (!h.checkVisibility()) continue; // a lab set aside
        const top = h.closest(".panel").getBoundingClientRect().top;
        if (top >= 0 && top < window.innerHeight) return `${h.textContent} at ${Math.round(top)}`;
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
  await page.evaluate(() => window.idempotencyLab.switchTo("ack", "lab=ack"));
  await expect(ackMirror(page)).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.evaluate(() => window.idempotencyLab.switchTo("risk", "lab=risk"));
  await expect(riskMirror(page)).toBeVisible();
  await expect.poll(topPanel).toBe(riskPlace);
});

test("a lab set aside stops playing and comes back where it was", async ({ page }) => {
  await page.goto("/");
  await expect(ackMirror(page)).toBeVisible();
  await page.getByRole("button", { name: "Play", exact: true }).click();
  await expect(page.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  await expect(page.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  await lab(page).selectOption("ack");
  await expect(page.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  const paused = await mirror(page).textContent();
  await page.waitForTimeout(400);
  await expect(mirror(page)).toHaveText(paused);
});

test("keys reach only the shown lab", async ({ page }) => {
  await page.goto("/");
  await expect(ackMirror(page)).toContainText("Model time: 0.00 s");
  const ackText = await mirror(page).textContent();
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toBeVisible();
  const riskBefore = await mirror(page).textContent();
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(mirror(page)).not.toHaveText(riskBefore);
  await lab(page).selectOption("ack");
  await expect(mirror(page)).toHaveText(ackText);
});

test("the reader's theme comes along to the other lab, both ways", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Lab", { exact: true }).hover();
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

// The opening page's bundle carries what the page shows at first; the whole
// first lab comes when the reader first reaches for a part it leaves out,
// and takes its place at the same moment, with the focus on the same
// control. Event times are MODEL.md's opening run: the first success is
// lost at 2.05 s and the client times out at 3.00 s.
test("the whole first lab loads on first use and takes the opening lab's place", async ({ page }) => {
  const whole = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/full/")) whole.push(new URL(request.url()).pathname);
  });
  await page.goto("/?at=2.05");
  await expect(mirror(page)).toContainText("Model time: 2.05 s");
  await expect(page.getByRole("button", { name: "Lost acknowledgement, deduplication on" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Crash matrix" }).getByRole("button")).toHaveText(
    "Show the crash matrix",
  );
  expect(whole, "nothing of the whole lab before it is used").toEqual([]);

  const compare = page.getByRole("button", { name: "Compare with…" });
  await compare.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Differences" })).toBeVisible();
  expect(whole).toContain("/full/idempotency-lab_bg.wasm");
  await expect(compare).toHaveAttribute("aria-expanded", "true");
  // As in the whole lab opened at first: the focus goes to run B's setting.
  await expect(page.getByLabel("Setting to change in run B")).toBeFocused();
  expect(await modelTime(page)).toBe("2.05");
  expect(await page.locator(".lab-root").count(), "one first lab in the page").toBe(1);
  expect(await duplicateIds(page)).toEqual([]);

  // The opening lab is gone with its shortcuts: had its keys stayed, the
  // step would also write its own address, with the comparison it had open.
  await compare.click();
  await expect(page.getByRole("region", { name: "Differences" })).toHaveCount(0);
  await page.evaluate(() => {
    window.addressesWritten = [];
    const write = history.replaceState;
    history.replaceState = function (state, title, url) {
      window.addressesWritten.push(String(url));
      return write.call(this, state, title, url);
    };
  });
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => modelTime(page)).toBe("3.00");
  await expect.poll(() => page.evaluate(() => window.addressesWritten.length)).toBeGreaterThan(0);
  await page.waitForTimeout(300);
  const written = await page.evaluate(() => window.addressesWritten);
  expect(written.filter((url) => /compare|b\./.test(url)), "addresses written with a comparison").toEqual([]);
  await expect(page.getByRole("button", { name: "Show the crash matrix" })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Crash point by deduplication store" })).toBeAttached();

  // The host switches to the whole lab and back like any other lab.
  await lab(page).selectOption("risk");
  await expect(riskMirror(page)).toContainText("preset incident, mode naive");
  await page.goBack();
  await expect(ackMirror(page)).toContainText("Model time: 3.00 s");
  expect(await duplicateIds(page)).toEqual([]);
});

test("a link that opens run B is handed to the whole first lab before anything is drawn", async ({ page }) => {
  // Every state-as-text region the page ever attached: the opening build
  // draws none.
  await page.addInitScript(() => {
    window.mirrorsSeen = new Set();
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(".mirror-text")) window.mirrorsSeen.add(el);
    }).observe(document, { subtree: true, childList: true });
  });
  // Run A (deduplication on) ends at 4.05 s and run B (off) at 6.05 s: a
  // playhead and a checkpoint at 6.05 s are on the shared clock, though
  // past run A's end.
  await page.goto("/?b.dedup=off&at=6.05&pin=6.05:Two%3F");
  await expect(page.getByRole("region", { name: "Differences" })).toBeVisible();
  expect(await modelTime(page)).toBe("6.05");
  expect(await page.locator(".lab-root").count()).toBe(1);
  expect(await page.evaluate(() => window.mirrorsSeen.size)).toBe(1);
  await expect(page.locator(".notice-text")).toHaveCount(0);
});

test("handing over while the run plays stops playback there, without an error", async ({ page }) => {
  await page.goto("/");
  await expect(mirror(page)).toContainText("Model time: 0.00 s");
  await page.getByRole("button", { name: "Play" }).click();
  await expect.poll(() => modelTime(page)).not.toBe("0.00");
  await page.getByRole("button", { name: "Compare with…" }).click();
  await expect(page.getByRole("region", { name: "Differences" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Play" })).toBeVisible();
  const at = await modelTime(page);
  await page.waitForTimeout(300);
  expect(await modelTime(page)).toBe(at);
});

test("if the whole first lab cannot be loaded, a notice says so and the opening lab still works", async ({ page }) => {
  await page.route("**/full/idempotency-lab_bg.wasm", (route) => route.abort());
  await page.goto("/?at=2.05");
  await expect(mirror(page)).toContainText("Model time: 2.05 s");
  await page.getByRole("button", { name: "Show the crash matrix" }).click();
  await expect(page.getByRole("alert")).toContainText("The rest of the lab could not be loaded");
  await page.getByRole("button", { name: "Next event" }).click();
  await expect.poll(() => modelTime(page)).toBe("3.00");
  // The aborted download is the only error the browser reported.
  page.problems.splice(0, page.problems.length, ...page.problems.filter((p) => !/full\/idempotency-lab_bg\.wasm|net::ERR_FAILED|WebAssembly|Failed to fetch/.test(p)));
});
