// Labels never collide: in every experiment's run of the first lab and
// every preset's run of the risk lab, at 1280 x 800 and in presenter mode
// on a 1920 x 1080 projector, no two labels overlap, each label is painted
// above every line, mark and the playhead (so none crosses it), and each
// sits next to its event (its moment's gridline passes within a few
// pixels of it).
import { test, expect, mirror } from "./fixtures.mjs";

/** What is wrong with the labels of the visible timeline of run A, as
 * sentences (an empty list is a pass). */
async function collisions(page) {
  return page.evaluate(() => {
    const problems = [];
    const timeline = document.querySelector(".timeline:not(.timeline-b)");
    for (const svg of timeline.querySelectorAll("svg.diagram")) {
      const all = [...svg.querySelectorAll("*")];
      const texts = all.filter((e) => e.tagName === "text" && getComputedStyle(e).visibility !== "hidden" && e.textContent.trim());
      // Painted above every line, mark, bar and the playhead.
      const shapes = all.filter((e) => ["path", "line", "circle", "rect"].includes(e.tagName) && !e.closest("defs, marker") && !/lane-band|future-veil/.test(e.getAttribute("class") ?? ""));
      const lastShape = Math.max(...shapes.map((e) => all.indexOf(e)));
      const firstText = Math.min(...texts.map((e) => all.indexOf(e)));
      if (texts.length && shapes.length && firstText < lastShape) problems.push(`a line, mark or the playhead is painted over a label in ${svg.getAttribute("class")}`);
      // No two labels overlap (a sweep along x).
      const boxes = texts.map((t) => ({ t, r: t.getBoundingClientRect() })).sort((a, b) => a.r.left - b.r.left);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length && boxes[j].r.left < boxes[i].r.right - 0.5; j++) {
          const [a, b] = [boxes[i].r, boxes[j].r];
          const rows = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (rows > 3) problems.push(`"${boxes[i].t.textContent}" overlaps "${boxes[j].t.textContent}"`);
        }
      }
      // Next to its event: within 24 units (of the drawing) of what it
      // labels, the marks, bars and lines of its record, or for a label of
      // the time axis the gridline of its moment.
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const slack = 24 * scale;
      const drawn = new Map();
      for (const e of shapes) {
        const key = e.hasAttribute("data-record") ? `r${e.getAttribute("data-record")}` : /gridline/.test(e.getAttribute("class")) ? `t${e.getAttribute("data-t")}` : null;
        if (key === null) continue;
        if (!drawn.has(key)) drawn.set(key, []);
        drawn.get(key).push(e.getBoundingClientRect());
      }
      for (const { t, r } of boxes) {
        if (/axis-break/.test(t.getAttribute("class"))) continue;
        const key = t.hasAttribute("data-record") ? `r${t.getAttribute("data-record")}` : `t${t.getAttribute("data-t")}`;
        const near = (drawn.get(key) ?? []).map((s) => Math.max(0, s.left - r.right, r.left - s.right));
        if (near.length && Math.min(...near) > slack) problems.push(`"${t.textContent}" is ${Math.round(Math.min(...near))} px from what it labels`);
      }
    }
    return problems;
  });
}

/** Presents the run on screen, checks its labels at the end, and comes back. */
async function checkPresented(page, name) {
  await page.getByRole("button", { name: "Present", exact: true }).click();
  await page.getByRole("slider", { name: "Time" }).press("End");
  expect(await collisions(page), `${name}, presenting`).toEqual([]);
  await page.getByRole("button", { name: "Exit presentation" }).click();
}

test.describe("at 1280 x 800 and presenting at 1920 x 1080", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("every experiment's run of the first lab", async ({ page }) => {
    await page.goto("/");
    await expect(mirror(page)).toContainText("Model time:");
    const buttons = page.getByRole("region", { name: "Experiments" }).getByRole("listitem").getByRole("button");
    const names = (await buttons.allTextContents()).filter((n) => !n.startsWith("Break it three ways"));
    expect(names.length).toBeGreaterThanOrEqual(18);
    for (const name of names) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("region", { name: "Experiments" }).getByRole("button", { name, exact: true }).click();
      await page.getByRole("button", { name: "Just show me" }).click();
      expect(await collisions(page), name).toEqual([]);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await checkPresented(page, name);
    }
  });

  test("every preset's run of the risk lab", async ({ page }) => {
    await page.goto("/?lab=risk");
    await expect(mirror(page)).toContainText("Risk-review lab: preset");
    const preset = page.getByLabel("Preset", { exact: true });
    const values = await preset.locator("option").evaluateAll((os) => os.map((o) => o.value));
    expect(values.length).toBeGreaterThanOrEqual(15);
    for (const value of values) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await preset.selectOption(value);
      await page.getByRole("slider", { name: "Time" }).press("End");
      expect(await collisions(page), value).toEqual([]);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await checkPresented(page, value);
    }
  });
});
