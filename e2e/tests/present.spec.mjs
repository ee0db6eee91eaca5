// An instructor's side: presenter mode in every lab on a 1920 x 1080
// projector (every text at least 24 px, the caption 32 px, the run and its
// figures on one screen), a clicker that runs a lesson alone, and the
// shipped lesson asking before it shows. And at 360 x 740 and 1280 x 800,
// the lesson's keys and presenter mode where a reader opens them there.
import { test, expect, labStarted, mirror, expectModelTime, SIZES, inView } from "./fixtures.mjs";

const PROJECTOR = { width: 1920, height: 1080 };

/** The smallest text on the page that a reader can see, in pixels as
 * drawn: HTML text at its computed size, a diagram's text at its size in
 * the drawing times the drawing's scale on screen (`getBBox` against the
 * box it takes). With the three smallest, for the message. */
async function smallestText(page) {
  return page.evaluate(() => {
    const sizes = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || !el || !el.checkVisibility({ visibilityProperty: true })) continue;
      if (el.closest("title, desc, style, script, .visually-hidden")) continue;
      let size = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement) {
        const text = el.closest("text");
        const bbox = text.getBBox();
        const rect = text.getBoundingClientRect();
        if (!bbox.width) continue;
        size *= rect.width / bbox.width;
      }
      sizes.push([Math.round(size * 10) / 10, node.textContent.trim().slice(0, 30)]);
    }
    sizes.sort((a, b) => a[0] - b[0]);
    return sizes.slice(0, 3);
  });
}

/** The box of `locator` on screen: top and bottom, left and right. */
async function box(locator) {
  const b = await locator.boundingBox();
  return { top: b.y, bottom: b.y + b.height, left: b.x, right: b.x + b.width };
}

test.describe("presenter mode on a 1920 x 1080 projector", () => {
  test.use({ viewport: PROJECTOR });

  test("the first lab: a 32 px caption, every text at least 24 px, the whole run and its figures on one screen", async ({ page }) => {
    await page.goto("/?present=1&dedup=off");
    await expect(mirror(page)).toContainText("Model time:");
    const caption = page.locator(".caption");
    await expect(caption).toHaveCSS("font-size", "32px");
    const smallest = await smallestText(page);
    expect(smallest[0][0], `the smallest texts: ${JSON.stringify(smallest)}`).toBeGreaterThanOrEqual(23.5);
    // The whole run across the diagram's box, and the box, playback and
    // the figures within the screen.
    const scroll = page.locator(".timeline:not(.timeline-b) .timeline-scroll");
    expect(await scroll.evaluate((s) => s.scrollWidth <= s.clientWidth + 1)).toBe(true);
    for (const part of [scroll, page.getByRole("region", { name: "At the playhead" }), page.locator(".playback")]) {
      expect(await inView(page, part)).toBe(true);
    }
  });

  test("the risk lab: a fitted timeline with its lanes at 0 s, RV-1 and RV-2 in one view, the figures beside it", async ({ page }) => {
    await page.goto("/?lab=risk&present=1");
    await expect(page.locator(".caption")).toHaveCSS("font-size", "32px");
    await page.locator(".timeline svg.diagram").first().waitFor();
    const smallest = await smallestText(page);
    expect(smallest[0][0], `the smallest texts: ${JSON.stringify(smallest)}`).toBeGreaterThanOrEqual(23.5);
    // At 0 s the lanes and what happens at 0 s are shown, the rest hidden.
    const timeline = page.locator(".timeline:not(.timeline-b)");
    await expect(timeline.locator(".lane-titles")).toContainText("Risk API");
    const shownAt0 = await timeline.locator("text").evaluateAll((ts) => ts.filter((t) => getComputedStyle(t).visibility !== "hidden").map((t) => t.textContent));
    expect(shownAt0.join(" ")).toContain("call 1: request_risk_review rk-0001");
    const scroll = timeline.locator(".timeline-scroll");
    expect(await scroll.evaluate((s) => s.scrollWidth <= s.clientWidth + 1), "no sideways scroll").toBe(true);
    expect(await inView(page, scroll)).toBe(true);
    expect(await inView(page, page.getByRole("region", { name: "At the playhead" }))).toBe(true);
    // At the end both reviews are drawn, in the box at once.
    await page.getByRole("slider", { name: "Time" }).press("End");
    const reviews = await timeline.locator("text").evaluateAll((ts) =>
      ts.filter((t) => /review RV-[12]/.test(t.textContent)).map((t) => {
        const r = t.getBoundingClientRect();
        const s = t.closest(".timeline-scroll").getBoundingClientRect();
        return r.left >= s.left - 1 && r.right <= s.right + 1;
      }),
    );
    expect(reviews.length).toBeGreaterThanOrEqual(2);
    expect(reviews.every(Boolean), "RV-1 and RV-2 in view together").toBe(true);
  });

  test("the storm lab presents (present=1 too): its charts, its totals, and a preset's question as the caption", async ({ page }) => {
    await page.goto("/?lab=storms");
    await labStarted(page);
    const totals = page.getByRole("region", { name: "Totals" });
    await expect(totals.locator(".figure").first()).toBeVisible();
    await page.getByRole("region", { name: "Presets" }).getByRole("button").first().click();
    await page.getByRole("button", { name: "Present", exact: true }).click();
    const caption = page.locator(".app.present .caption");
    await expect(caption).toHaveCSS("font-size", "32px");
    await expect(caption).toHaveText(/\?$/);
    // The question waits for a prediction, in the totals; once made, the
    // charts show.
    await page.getByRole("region", { name: "Totals" }).getByRole("button", { name: "Just show me" }).click();
    await expect(page.locator(".app.present .line-chart svg.chart-svg").first()).toBeVisible();
    expect(await inView(page, page.locator(".app.present .line-chart").first())).toBe(true);
    const smallest = await smallestText(page);
    expect(smallest[0][0], `the smallest texts: ${JSON.stringify(smallest)}`).toBeGreaterThanOrEqual(23.5);
    await expect(page).toHaveURL(/present=1/);
    // Escape leaves it; a link with present=1 opens it.
    await page.keyboard.press("Escape");
    await expect(page.locator(".app.present")).toHaveCount(0);
    await page.goto("/?lab=storms&present=1");
    await expect(page.locator(".app.storms.present .caption")).toBeVisible();
  });
});

const lessonLink = (text, extra = "") => `/?lesson=${encodeURIComponent(text)}${extra}`;

test.describe("a clicker runs a lesson alone", () => {
  test.use({ viewport: PROJECTOR });

  test("on a question step PageDown shows the answer, the next goes on, PageUp back, whatever control has the focus", async ({ page }) => {
    const text = "Lesson: Two\nStep: Off\nSettings: dedup=off\nAt: 3\nQuestion: Where will it break?\nAnswer: In the Server.\nAnswer at: 6.05\nStep: Zero\nSettings: retention=0\nAt: 3\n";
    await page.goto(lessonLink(text, "&present=1"));
    await expect(page.locator(".lesson h2")).toHaveText("Step 1 of 2: Off");
    await expectModelTime(page, "3.00");
    // The question hides what is to come.
    await expect(page.locator(".readout output")).toContainText("what comes next is hidden");
    // A select has the focus, as after a click on it; PageDown is the
    // clicker's, not the select's.
    const speed = page.getByLabel("Speed");
    await speed.focus();
    await page.keyboard.press("PageDown");
    await expect(page.locator(".lesson-answer")).toBeVisible();
    await expect(page.locator(".lesson-answer")).toHaveText("In the Server.");
    await expectModelTime(page, "6.05");
    await expect(speed).toHaveValue("1x");
    await expect(page.getByRole("region", { name: "Where it broke" })).toContainText("Server lane");
    await page.keyboard.press("PageDown");
    await expect(page.locator(".lesson h2")).toHaveText("Step 2 of 2: Zero");
    await expect(page.locator(".app.present")).toHaveCount(1);
    await page.keyboard.press("PageUp");
    await expect(page.locator(".lesson h2")).toHaveText("Step 1 of 2: Off");
  });

  test("the shipped lesson asks before it shows: a step opens before its break, drawn once answered", async ({ page }) => {
    await page.goto("/");
    await expect(mirror(page)).toContainText("Model time:");
    const lessons = page.getByRole("region", { name: "Lessons" });
    await lessons.getByRole("button", { name: "Present the lesson: Three ways to count one intent twice" }).click();
    await expect(page.locator(".lesson h2")).toHaveText(/^Step 1 of 5/);
    await page.keyboard.press("PageDown"); // the answer
    await page.keyboard.press("PageDown"); // step 2: deduplication off
    await expect(page.locator(".lesson h2")).toHaveText("Step 2 of 5: Deduplication off");
    await expectModelTime(page, "3.00");
    const broke = page.getByRole("region", { name: "Where it broke" });
    await expect(broke).toContainText("Nothing has broken so far");
    const ring = page.locator(".timeline:not(.timeline-b) .broke-ring");
    await expect(ring).toBeHidden();
    await page.getByRole("button", { name: "Show the answer" }).click();
    await expectModelTime(page, "6.05");
    await expect(broke).toContainText("Server lane");
    await expect(ring).toBeVisible();
  });

  test("a lesson step in the storm lab keeps presenter mode, and PageDown steps on from there", async ({ page }) => {
    const text = "Lesson: Storms\nStep: A storm\nLab: storms\nStep: Back\nLab: ack\nAt: 4.05\n";
    await page.goto(lessonLink(text, "&present=1"));
    await expect(page.locator(".app.storms.present")).toHaveCount(1);
    await expect(page.locator(".lesson h2")).toHaveText("Step 1 of 2: A storm");
    await expect(page.locator(".lesson h2")).toHaveCSS("font-size", "24px");
    await page.keyboard.press("PageDown");
    await expect(page.locator(".lesson h2")).toHaveText("Step 2 of 2: Back");
    await expect(page.locator(".app.present")).toHaveCount(1);
  });
});

for (const size of SIZES.slice(0, 2)) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: size.viewport, isMobile: size.isMobile ?? false, hasTouch: size.hasTouch ?? false });

    test("PageDown shows a question step's answer before it goes on, with a control focused", async ({ page }) => {
      const text = "Step: Off\nSettings: dedup=off\nAt: 3\nQuestion: Where?\nAnswer: Server.\nAnswer at: 6.05\nStep: On\n";
      await page.goto(lessonLink(text));
      await expect(page.locator(".lesson h2")).toHaveText("Step 1 of 2: Off");
      await page.getByRole("region", { name: "Settings" }).getByLabel("Response fault").focus();
      await page.keyboard.press("PageDown");
      await expect(page.locator(".lesson-answer")).toBeVisible();
      await expectModelTime(page, "6.05");
      await expect(page.getByRole("region", { name: "Settings" }).getByLabel("Response fault")).toHaveValue("lose-first");
      await page.keyboard.press("PageDown");
      await expect(page.locator(".lesson h2")).toHaveText("Step 2 of 2: On");
    });
  });
}
