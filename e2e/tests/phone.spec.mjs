// On a 360 x 740 phone: the sequence layout, the page's order, and the
// toolbar folded into "Share and files". And the sequence layout on a
// desktop, where a link asks for it.
import { test, expect, labStarted, mirror, seriousViolations } from "./fixtures.mjs";

const PHONE = { width: 360, height: 740 };

const LABS = [
  { name: "the first lab", path: "/", ready: (page) => expect(mirror(page)).toContainText("Model time:") },
  { name: "the risk lab", path: "/?lab=risk", ready: (page) => expect(mirror(page)).toContainText("Risk-review lab: preset") },
];

async function openAt(page, lab, query = "") {
  await page.goto(query ? `${lab.path}${lab.path.includes("?") ? "&" : "?"}${query}` : lab.path);
  await lab.ready(page);
  await page.locator("svg.diagram").first().waitFor();
}

/** Every label's box and the diagram's, in page coordinates. */
async function labelBoxes(page) {
  return page.evaluate(() => {
    const svg = document.querySelector(".timeline:not(.timeline-b) svg.diagram:not(.axis-strip)");
    const frame = svg.getBoundingClientRect();
    const scroller = svg.closest(".timeline-scroll").getBoundingClientRect();
    const labels = [...svg.querySelectorAll("text")].map((t) => {
      const b = t.getBoundingClientRect();
      return { text: t.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    });
    return { frame: { left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom }, scroller: { left: scroller.left, right: scroller.right }, labels };
  });
}

/** The names of the toolbar's buttons (and its file input's label). */
async function toolbarNames(page) {
  return page.locator(".toolbar-items").evaluate((items) =>
    [...items.querySelectorAll("button, label")].map((e) => e.textContent.trim()),
  );
}

for (const lab of LABS) {
  test.describe(`${lab.name} at 360 x 740`, () => {
    test.use({ viewport: PHONE });

    test("the diagram runs down the screen, its first mark on the first screen, every label inside it", async ({ page }) => {
      await openAt(page, lab);
      await expect(page.locator(".timeline-frame.sequence").first()).toBeVisible();
      // The first event's mark (its arrow, bar or glyph: anything drawn
      // but the lanes' bands, the gridlines and the labels' leaders).
      const first = await page
        .locator(".timeline:not(.timeline-b) svg.diagram path:not(.gridline):not(.leader):not(.arrowhead)")
        .evaluateAll((marks) => Math.min(...marks.map((m) => m.getBoundingClientRect().top)));
      expect(first).toBeLessThan(PHONE.height - 20);
      // Nothing scrolls sideways: neither the page nor the diagram's box.
      const page_ = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(page_[0]).toBeLessThanOrEqual(page_[1]);
      const box = await page.locator(".timeline:not(.timeline-b) .timeline-scroll").evaluate((s) => [s.scrollWidth, s.clientWidth]);
      expect(box[0]).toBeLessThanOrEqual(box[1]);
      // Every label of the opening run lies inside the diagram and inside
      // the box that shows it.
      const { frame, scroller, labels } = await labelBoxes(page);
      expect(labels.length).toBeGreaterThan(5);
      for (const l of labels) {
        expect(l.left, l.text).toBeGreaterThanOrEqual(frame.left - 0.5);
        expect(l.right, l.text).toBeLessThanOrEqual(frame.right + 0.5);
        expect(l.top, l.text).toBeGreaterThanOrEqual(frame.top - 0.5);
        expect(l.bottom, l.text).toBeLessThanOrEqual(frame.bottom + 0.5);
        expect(l.right, l.text).toBeLessThanOrEqual(scroller.right + 0.5);
      }
    });

    test("Tab from the top reaches Play before any settings field", async ({ page }) => {
      await openAt(page, lab);
      await page.locator("body").evaluate((b) => b.focus());
      let reachedPlay = false;
      for (let i = 0; i < 60 && !reachedPlay; i++) {
        await page.keyboard.press("Tab");
        const where = await page.evaluate(() => {
          const e = document.activeElement;
          return { name: e.textContent.trim(), inSettings: !!e.closest(".area-controls"), tag: e.tagName };
        });
        expect(where.inSettings, `a settings field (${where.tag}) came first, at Tab ${i + 1}`).toBe(false);
        reachedPlay = where.tag === "BUTTON" && where.name === "Play";
      }
      expect(reachedPlay).toBe(true);
    });

    test("the toolbar folds into Share and files, which holds the same buttons", async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await openAt(page, lab);
      const wide = await toolbarNames(page);
      await expect(page.getByRole("button", { name: "Share and files" })).toBeHidden();
      await page.setViewportSize(PHONE);
      const menu = page.getByRole("button", { name: "Share and files" });
      await expect(menu).toBeVisible();
      await expect(menu).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("button", { name: "Copy link" })).toBeHidden();
      await menu.click();
      await expect(menu).toHaveAttribute("aria-expanded", "true");
      await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
      expect(await toolbarNames(page)).toEqual(wide);
      // A button chosen closes the menu; its result shows below it.
      await page.getByRole("button", { name: "Copy link" }).click();
      await expect(menu).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("textbox", { name: "Link to this run and moment" })).toHaveValue(/http/);
      // Escape closes it and gives the focus back to its button.
      await menu.click();
      await page.getByRole("button", { name: "Embed" }).focus();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("button", { name: "Copy link" })).toBeHidden();
      await expect(menu).toBeFocused();
    });
  });

  test.describe(`${lab.name}: accessibility at 360 x 740`, () => {
    test.use({ viewport: PHONE, bypassCSP: true });
    test("axe finds no serious or critical violations, the menu open", async ({ page }) => {
      await openAt(page, lab);
      await page.getByRole("button", { name: "Share and files" }).click();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  test(`${lab.name}: layout=sequence on a desktop, the mirror and the playhead agreeing with the timeline`, async ({ page }) => {
    const at = lab.path === "/" ? "2.05" : "2.622";
    const marks = async () =>
      page.locator(".timeline:not(.timeline-b) svg.diagram").evaluate((svg) => {
        const line = svg.querySelector("line.playhead");
        const p = { x1: +line.getAttribute("x1"), y1: +line.getAttribute("y1"), x2: +line.getAttribute("x2"), y2: +line.getAttribute("y2") };
        return { playhead: p, width: +svg.getAttribute("viewBox").split(" ")[2] };
      });
    await openAt(page, lab, `at=${at}&layout=timeline`);
    const across = { mirror: await mirror(page).textContent(), ...(await marks()) };
    // The mirror says the link's moment, not merely the same as the other layout's.
    const moment = `Model time: ${at} s`;
    expect(across.mirror).toContain(moment);
    expect(across.playhead.x1).toBe(across.playhead.x2);
    await openAt(page, lab, `at=${at}&layout=sequence`);
    await expect(page.locator(".timeline-frame.sequence").first()).toBeVisible();
    await expect(page.getByLabel("Layout", { exact: true }).first()).toHaveValue("sequence");
    const down = { mirror: await mirror(page).textContent(), ...(await marks()) };
    // The same moment, said the same way; the playhead now runs across.
    expect(down.mirror).toContain(moment);
    expect(down.mirror).toBe(across.mirror);
    expect(down.playhead.y1).toBe(down.playhead.y2);
    expect(down.playhead.x2).toBe(down.width);
    // Choosing the timeline again goes back, and the link keeps the choice.
    await page.getByLabel("Layout", { exact: true }).first().selectOption("timeline");
    await expect(page.locator(".timeline-frame.sequence")).toHaveCount(0);
    await expect(page).toHaveURL(/layout=timeline/);
  });
}

test("the first lab: marks before the playhead lie above it and marks after it below, in the sequence layout", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openAt(page, LABS[0], "at=3.00");
  const split = await page.locator(".timeline svg.diagram").evaluate((svg) => {
    const y = +svg.querySelector("line.playhead").getAttribute("y1");
    const marks = [...svg.querySelectorAll("path.mark")].map((m) => {
      const b = m.getBBox();
      return { future: m.classList.contains("future"), mid: b.y + b.height / 2 };
    });
    return { y, marks };
  });
  expect(split.marks.some((m) => m.future) && split.marks.some((m) => !m.future)).toBe(true);
  for (const m of split.marks) {
    if (m.future) expect(m.mid).toBeGreaterThan(split.y);
    else expect(m.mid).toBeLessThanOrEqual(split.y + 0.5);
  }
});

test.describe("the storm lab at 360 x 740", () => {
  test.use({ viewport: PHONE });
  test("its charts start on the first screen, before the totals and the settings in the page's order", async ({ page }) => {
    await page.goto("/?lab=storms");
    await labStarted(page);
    await expect(page.getByRole("region", { name: "Totals" })).toContainText("Intents", { timeout: 20_000 });
    const chart = page.locator(".line-chart svg.chart-svg").first();
    await expect(chart).toBeVisible();
    expect((await chart.boundingBox()).y).toBeLessThan(PHONE.height);
    const order = await page.evaluate(() => {
      const chart = document.querySelector(".line-chart svg.chart-svg");
      const totals = [...document.querySelectorAll("section")].find((s) => s.textContent.startsWith("Totals"));
      const settings = document.querySelector(".area-controls");
      const before = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      return { chartBeforeTotals: before(chart, totals), chartBeforeSettings: before(chart, settings) };
    });
    expect(order).toEqual({ chartBeforeTotals: true, chartBeforeSettings: true });
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
  });
});

test.describe("the storm lab: accessibility at 360 x 740", () => {
  test.use({ viewport: PHONE, bypassCSP: true });
  test("axe finds no serious or critical violations", async ({ page }) => {
    await page.goto("/?lab=storms");
    await labStarted(page);
    await expect(page.getByRole("region", { name: "Totals" })).toContainText("Intents", { timeout: 20_000 });
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test("the sequence diagram's box follows the playhead down as it moves", async ({ page }) => {
  await page.setViewportSize(PHONE);
  // The risk lab's lost create response runs long enough to leave the box.
  await page.goto("/?lab=risk&preset=lost-create-response&mode=patterns");
  await expect(mirror(page)).toContainText("Risk-review lab: preset");
  const box = page.locator(".timeline:not(.timeline-b) .timeline-scroll");
  const [scrollHeight, clientHeight] = await box.evaluate((b) => [b.scrollHeight, b.clientHeight]);
  expect(scrollHeight).toBeGreaterThan(clientHeight * 1.5);
  expect(await box.evaluate((b) => b.scrollTop)).toBe(0);
  await page.getByRole("slider", { name: "Time" }).press("End");
  await expect.poll(() => box.evaluate((b) => b.scrollTop)).toBeGreaterThan(clientHeight / 2);
  // The playhead is inside the box's view.
  const inView = await box.evaluate((b) => {
    const line = b.querySelector("line.playhead").getBoundingClientRect();
    const view = b.getBoundingClientRect();
    return line.top >= view.top && line.top <= view.bottom;
  });
  expect(inView).toBe(true);
});
