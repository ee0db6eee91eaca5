// Words a student can read, at 360 x 740, 1280 x 800 and 1920 x 1080: the
// risk lab's terms in one glossary where they are first met, its table
// saying when it scrolls and its state machine whole on a phone; the storm
// lab's totals judged against the run without retries, its presets first
// and a preset's question beside what it asks about; and the Lessons help
// with the format, an example and every lab's setting names.
import { test, expect, labStarted, mirror, SIZES } from "./fixtures.mjs";

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: size.viewport, isMobile: size.isMobile ?? false, hasTouch: size.hasTouch ?? false });

    test("the risk lab: its words defined in one glossary before the patterns that use them, its table and state machine readable", async ({ page }) => {
      await page.goto("/?lab=risk&at=4.432");
      await expect(mirror(page)).toContainText("Risk-review lab: preset");
      const words = page.locator("details.words");
      await expect(words.locator("summary")).toHaveText(/^Words used here: request_key, business_key, Review, Idempotent create, UNKNOWN/);
      // Before the first pattern that names one of them, in the page's order.
      const before = await page.evaluate(() => {
        const w = document.querySelector("details.words");
        const first = document.querySelector("fieldset.patterns");
        return Boolean(w.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(before).toBe(true);
      await words.locator("summary").click();
      await expect(words.locator("dd").first()).toContainText("The idempotency key of one tool call's intent");
      await expect(words).toContainText("Compare-and-set");
      // The table's columns say what they mean on hover, and the table says
      // when it is wider than its box.
      const table = page.getByRole("region", { name: "Database table" });
      await expect(table.locator("th .term", { hasText: "request_key" })).toHaveAttribute("title", /idempotency key of one tool call/);
      const scroller = table.locator(".table-scroll");
      const cut = await scroller.evaluate((s) => s.scrollWidth > s.clientWidth + 1);
      if (cut) await expect(table.locator(".scroll-cue")).toHaveText("The table is wider than its box: scroll it sideways for every column.");
      else await expect(table.locator(".scroll-cue")).toHaveCount(0);
      if (size.viewport.width === 360) expect(cut, "the phone's table is cut").toBe(true);
      // The state machine's drawing fits its box: every label in view.
      const machine = page.getByRole("region", { name: "State machine" });
      const fit = await machine.locator("svg.machine-drawing").evaluate((svg) => {
        const frame = svg.parentElement.getBoundingClientRect();
        const page = document.documentElement.clientWidth;
        const out = [...svg.querySelectorAll("text")].filter((t) => {
          const r = t.getBoundingClientRect();
          return r.left < frame.left - 1 || r.right > Math.min(frame.right, page) + 1;
        });
        return out.map((t) => t.textContent);
      });
      expect(fit, "labels outside the state machine's box").toEqual([]);
    });

    test("the storm lab: presets first, each total judged against the run without retries, a preset's question beside the figures it asks about", async ({ page }) => {
      await page.goto("/?lab=storms");
      // The live lab, not the opening run written before it starts.
      await labStarted(page);
      const totals = page.getByRole("region", { name: "Totals" });
      const operations = totals.locator(".figure", { hasText: "Operations executed" });
      await expect(operations.locator(".against")).toHaveText(/^worse: \d+(\.\d+)?× the run without retries$/);
      // The word has the colour of its judgement.
      const danger = await page.evaluate(() => {
        const probe = document.createElement("span");
        probe.style.color = "var(--il-danger)";
        document.body.append(probe);
        const c = getComputedStyle(probe).color;
        probe.remove();
        return c;
      });
      await expect(operations.locator(".against")).toHaveCSS("color", danger);
      await expect(totals.locator(".figure", { hasText: "Duplicate effects" }).locator(".against")).toHaveText("worse: none in the run without retries");
      // The presets come first, before the totals and the charts.
      const presets = page.getByRole("region", { name: "Presets" });
      const order = await page.evaluate(() => {
        const at = (s) => document.querySelector(s).getBoundingClientRect().top;
        return [at(".presets"), at(".totals"), at(".storm-charts")];
      });
      expect(order[0]).toBeLessThan(Math.min(order[1], order[2]));
      // A preset asks in the totals, and the figure it asks about is marked.
      await presets.getByRole("button", { name: "Deduplication with stable keys" }).click();
      const question = totals.getByText(/^Predict: How many duplicate effects/);
      await expect(question).toBeVisible();
      const asked = totals.locator(".figure.asked");
      await expect(asked).toHaveCount(1);
      await expect(asked.locator("dt")).toHaveText("Duplicate effects");
      await expect(asked.locator("dd")).toHaveText("?");
    });

    test("the Lessons help gives the format, an example, and every lab's setting names from its schema", async ({ page }) => {
      await page.goto("/");
      await expect(mirror(page)).toContainText("Model time:");
      // The live lab, not the opening run it replaces (a disclosure opened
      // in that one closes with it).
      await labStarted(page);
      const lessons = page.getByRole("region", { name: "Lessons" });
      await lessons.getByText("How to write a lesson").click();
      const help = lessons.locator("details.lesson-help");
      for (const field of ["Lesson:", "Step:", "Lab:", "Settings:", "At:", "Question:", "Answer:", "Answer at:"]) {
        await expect(help.locator("dt", { hasText: field }).first()).toBeVisible();
      }
      await expect(help.locator("pre")).toContainText("Settings: dedup=off");
      for (const [lab, name, label] of [
        ["Lost acknowledgement (ack)", "retention", "Stored-result retention"],
        ["Risk review (risk)", "idem", ""],
        ["Storms (storms)", "clients", "Clients"],
      ]) {
        const list = help.locator("h4", { hasText: lab }).locator("xpath=following-sibling::ul[1]");
        await expect(list.locator("code", { hasText: new RegExp(`^${name}$`) })).toHaveCount(1);
        if (label) await expect(list).toContainText(label);
      }
      await expect(lessons).not.toContainText("README");
    });
  });
}
