// A student's side, on a phone (360 x 740), a laptop (1280 x 800) and a
// big screen (1920 x 1080): the seed experiment on one screen (its actions
// counted), bad input that never runs, misspelled names told apart, the
// playhead that keeps its place, "Hide the future" hiding all of it, and
// experiments opening where the reader is.
import { test, expect, open, figure, mirror, expectModelTime, SIZES, inView, toolbarButton } from "./fixtures.mjs";

const broke = (page) => page.getByRole("region", { name: "Where it broke" });

const seed = (page) => page.getByRole("group", { name: "Change one setting of the opening run" });

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: size.viewport, isMobile: size.isMobile ?? false, hasTouch: size.hasTouch ?? false });

    test("the seed experiment (deduplication off, retention 0, a new key per attempt) in at most five actions, each effect on screen", async ({ page }) => {
      await open(page);
      // Every action the reader takes is counted: a tap or a click, and a
      // scroll wherever what they need is not on screen yet.
      let actions = 0;
      const act = async (control, how) => {
        if (!(await inView(page, control))) {
          actions += 1;
          await control.scrollIntoViewIfNeeded();
        }
        actions += 1;
        await how(control);
      };
      // What each change does, where it broke, is read without scrolling.
      const said = async (words) => {
        await expect(broke(page).locator("p").first()).toContainText(words);
        expect(await inView(page, broke(page).locator("p").first()), `"${words}" on screen`).toBe(true);
      };
      // The strip with the seed's changes is on the first screen, beside
      // the diagram.
      expect(await inView(page, seed(page)), "the seed's changes on the first screen").toBe(true);
      await act(seed(page).getByLabel("Deduplication off"), (c) => c.check());
      await said("Nothing has broken so far");
      await act(broke(page).getByRole("button", { name: "Go there" }), (c) => c.click());
      await said("Server lane, at 4.00 s");
      // The playhead keeps its place: the next change breaks at the same
      // moment, in another lane.
      await act(seed(page).getByLabel("Retention zero"), (c) => c.check());
      await said("Dedup store lane, at 2.00 s");
      await act(seed(page).getByLabel("A new key per attempt"), (c) => c.check());
      await said("Client lane, at 4.00 s");
      expect(actions, "actions from the opening page").toBeLessThanOrEqual(5);
      // The figures agree: two increments for the one intent.
      await expect(figure(page, "Committed counter")).toHaveText("2");
    });

    test("bad input never runs, says which value the run uses, and names the range; misspelled names get the nearest known one", async ({ page }) => {
      // A misspelled setting in a link, and in a lesson's Settings: line.
      const lesson = encodeURIComponent("Lesson: Mine\nStep: One\nSettings: dedupe=off\nQuestion: Where?");
      await open(page, `dedupe=off&lesson=${lesson}`);
      const notices = page.locator(".notice-text");
      await expect(notices.filter({ hasText: "dedupe:" })).toHaveText(
        "dedupe: not a setting of this lab, so it was ignored; the nearest known name is dedup",
      );
      await expect(notices.filter({ hasText: "lesson line 3" })).toContainText(
        "Settings: dedupe is not a setting of the ack lab; the nearest known name is dedup. The lesson was not opened.",
      );
      // The lesson did not start with its settings unsaid, and the run is
      // the opening one (deduplication on).
      await expect(page.locator(".lesson")).toHaveCount(0);
      await expect(page.getByRole("region", { name: "Settings" }).getByLabel("Server deduplicates operation keys (idempotency keys)")).toBeChecked();

      // Typed key by key, "1e9" passes through "1", which is allowed; the
      // run goes back to the 3 attempts the field held before.
      const attempts = page.getByRole("region", { name: "Settings" }).getByLabel("Maximum total attempts");
      await attempts.click();
      await attempts.press("ControlOrMeta+a");
      await page.keyboard.type("1e9");
      await expect(page.locator("#f-attempts-error")).toHaveText(
        'Not allowed: 1e9; the run uses 3. Maximum total attempts: "1e9" is not a whole number; allowed: a whole number from 1 to 10',
      );
      await expect(figure(page, "Attempts")).toHaveText("1 of 3");
      await expect(mirror(page)).toContainText("Attempts sent: 1 of at most 3");
      // A number below the range is out of range, not "not a number".
      const timeout = page.getByRole("region", { name: "Settings" }).getByLabel("Timeout per attempt");
      await timeout.fill("-3");
      await expect(page.locator("#f-timeout-error")).toHaveText(
        "Not allowed: -3; the run uses 3 s. Timeout per attempt: -3 is out of range; allowed: 0.001 to 600 seconds",
      );
      // A retention past the range leaves the run on its 60 s.
      const retention = page.getByRole("region", { name: "Settings" }).getByLabel("Stored-result retention");
      await retention.fill("99999999999");
      await expect(page.locator("#f-retention-error")).toContainText("Not allowed: 99999999999; the run uses 60 s.");
      await expect(mirror(page)).not.toContainText("10001");
    });

    test("after a change the playhead keeps its place, at the end stays at the new end, and Go there finds the break", async ({ page }) => {
      // At the opening run's end (4.05 s), deduplication off: the new run
      // ends at 6.05 s, and the playhead goes with it.
      await open(page, "at=4.05");
      await seed(page).getByLabel("Deduplication off").check();
      await expectModelTime(page, "6.05");
      await expect(broke(page)).toContainText("Server lane, at 4.00 s");
      // Go there: the duplicate increment, 2 s after attempt 2 started.
      await broke(page).getByRole("button", { name: "Go there" }).click();
      await expectModelTime(page, "6.00");
      await expect(broke(page).getByRole("button", { name: "Go there" })).toHaveCount(0);
      // In the middle of the run the playhead keeps its model time.
      await page.getByRole("slider", { name: "Time" }).fill("3000");
      await expectModelTime(page, "3.00");
      await seed(page).getByLabel("A new key per attempt").check();
      await expectModelTime(page, "3.00");
    });

    test("Hide the future hides the diagram's future, the chart's, the words' and the end; presenting turns it on and its box says so", async ({ page }) => {
      // Deduplication off at 2.00 s: the first commit is in; the lost
      // response (2.05 s), the retry (4.00 s) and the second increment
      // (6.00 s) are still to come.
      await open(page, "dedup=off&at=2&layout=timeline");
      await page.getByRole("checkbox", { name: "Hide the future" }).check();
      const svg = page.locator(".timeline:not(.timeline-b) svg.diagram");
      const shown = (selector) =>
        svg.locator(selector).evaluateAll((els) => els.filter((e) => getComputedStyle(e).visibility !== "hidden").map((e) => e.textContent || e.getAttribute("class")));
      expect(await shown("text.axis-label")).toEqual(["0.00 s", "2.00 s"]);
      expect(await shown(".lost, .lost-label")).toEqual([]);
      expect((await shown("text")).join(" ")).not.toContain("attempt 2");
      await expect(mirror(page)).not.toContainText("the run ends");
      await expect(mirror(page)).not.toContainText("lost");
      await expect(page.locator(".results .end-line")).toHaveCount(0);
      await expect(page.locator(".readout output")).toHaveText("Model 2.00 s; what comes next is hidden");
      await expect(broke(page).getByRole("button", { name: "Go there" })).toHaveCount(0);
      // The chart ends at the playhead: one increment so far, nothing of
      // the second at 6.00 s.
      const chart = page.getByRole("img", { name: /^Chart over model time/ });
      await expect(chart).toHaveAttribute("aria-label", /0\.00 s to 2\.00 s: the committed counter rises to 1 at 2\.00 s/);
      await expect(chart).not.toHaveAttribute("aria-label", /6\.00 s/);
      // Presenter mode hides it, and its box says so; unticked, the future
      // shows (greyed) and the readout names the end again.
      await page.getByRole("checkbox", { name: "Hide the future" }).uncheck();
      await (await toolbarButton(page, "Present")).click();
      const box = page.getByRole("checkbox", { name: "Hide the future" });
      await expect(box).toBeChecked();
      await expect(page.locator(".readout output")).toContainText("what comes next is hidden");
      await box.uncheck();
      await expect(page.locator(".readout output")).toContainText("Model 2.00 s of 6.05 s");
      expect(await shown("text.axis-label")).toContain("6.05 s");
    });

    test("the risk lab hides its future whole, the labels of the present whole too", async ({ page }) => {
      // The naive incident at the timeout (2.621 s): RV-2 (4.411 s) is to come.
      await page.goto("/?lab=risk&at=2.621&layout=timeline");
      await expect(mirror(page)).toContainText("Risk-review lab: preset");
      await page.getByRole("checkbox", { name: "Hide the future" }).check();
      const timeline = page.locator(".timeline:not(.timeline-b)");
      const visible = (selector) =>
        timeline.locator(selector).evaluateAll((els) => els.filter((e) => getComputedStyle(e).visibility !== "hidden").map((e) => e.textContent));
      const axis = await visible("text.axis-label");
      expect(axis).toContain("2.621 s");
      expect(axis).not.toContain("4.411 s");
      expect((await visible("text")).join(" ")).not.toContain("RV-2");
      // The label that starts at the playhead is shown whole: no veil cuts it.
      expect((await visible("text")).join(" ")).toContain("Create times out after 2.50 s");
      await expect(timeline.locator(".future-veil")).toBeHidden();
      // Where it broke names the checks failed by the playhead, and nothing
      // of the second review to come.
      await expect(broke(page)).toContainText("“A lost response converges” has failed since 10:31:08.651 (0.531 s) on the Risk API lane.");
      await expect(broke(page)).not.toContainText("RV-2");
      await expect(broke(page)).not.toContainText("second review");
      await expect(broke(page).getByRole("button", { name: "Go there" })).toHaveCount(0);
      await expect(page.locator(".readout output")).toContainText("what comes next is hidden");
    });

    test("experiments open where the reader is, their heading focused; Break it three ways draws with the lab's own fit", async ({ page }) => {
      await open(page);
      const panel = page.getByRole("region", { name: "Experiments" });
      await panel.getByRole("button", { name: "Retention zero" }).click();
      const title = page.getByRole("heading", { name: "Retention zero", level: 3 });
      await expect(title).toBeFocused();
      expect(await inView(page, title), "the experiment's heading on screen").toBe(true);
      // Its question comes first, above the diagram it asks about.
      await expect(page.getByText("Predict: How many increments")).toBeVisible();
      await page.getByRole("button", { name: "Just show me" }).click();

      await panel.getByRole("button", { name: /^Break it three ways/ }).click();
      const heading = page.getByRole("heading", { name: "Break it three ways", level: 2 });
      await expect(heading).toBeFocused();
      expect(await inView(page, heading), "the three ways' heading on screen").toBe(true);
      // Each run's diagram fits its box (a sequence on the phone, fitted
      // across elsewhere), every label inside it.
      const ways = page.locator(".three-ways .way");
      await expect(ways).toHaveCount(3);
      for (let i = 0; i < 3; i++) {
        const fit = await ways.nth(i).evaluate((way) => {
          const scroll = way.querySelector(".timeline-scroll");
          const svg = scroll.querySelector("svg.diagram");
          const box = svg.getBoundingClientRect();
          const out = [...svg.querySelectorAll("text")].filter((t) => {
            const r = t.getBoundingClientRect();
            return r.right > box.right + 1 || r.left < box.left - 1;
          });
          return { wider: scroll.scrollWidth > scroll.clientWidth + 1, sequence: way.querySelector(".sequence") !== null, out: out.map((t) => t.textContent) };
        });
        expect(fit.wider, `run ${i + 1} scrolls sideways`).toBe(false);
        expect(fit.out, `run ${i + 1}'s labels inside its diagram`).toEqual([]);
        expect(fit.sequence, "the sequence layout on the phone only").toBe(page.viewportSize().width <= 600);
      }
    });
  });
}
