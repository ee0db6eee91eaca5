// The lesson made visible: where each change breaks idempotency, a
// diagram that fits its box, nothing shown before it happens, the chart's
// gap, the risk lab's "Show me", lessons stepped with a clicker, and
// embeds that show their result. Every expected lane, time and count is
// worked out by hand from MODEL.md and RISK-MODEL.md.
import { test, expect, open, figure, results, holdClock, hostOrigin } from "./fixtures.mjs";

const broke = (page) => page.getByRole("region", { name: "Where it broke" });

/** The title of the lane the diagram marks (its ring's centre lies in that
 * lane's band). */
async function markedLane(page) {
  return page.evaluate(() => {
    const d = document.querySelector("svg.diagram");
    const ring = d.querySelector(".broke-ring").getBBox();
    const y = ring.y + ring.height / 2;
    const bands = [...document.querySelectorAll(".lane-titles .lane-band")];
    const titles = [...document.querySelectorAll(".lane-titles .lane-title")].map((t) => t.textContent);
    const i = bands.findIndex((b) => {
      const top = Number(b.getAttribute("y"));
      return y >= top && y <= top + Number(b.getAttribute("height"));
    });
    return titles[i];
  });
}

// MODEL.md's opening run loses attempt 1's success at 2.05 s; attempt 2
// goes at 4.00 s. With deduplication off the server performs it again (the
// Server lane); with retention 0 attempt 1's result expired as it was
// stored at 2.00 s (the Dedup store); with a new key per attempt attempt 2
// carries attempt-2 (the Client). Each run ends at 6.05 s.
for (const [query, lane, at] of [
  ["dedup=off", "Server", "4.00 s"],
  ["retention=0", "Dedup store", "2.00 s"],
  ["key=per-attempt", "Client", "4.00 s"],
]) {
  test(`with ${query} "Where it broke" names the ${lane} lane and the diagram marks it`, async ({ page }) => {
    await open(page, `${query}&at=6.05`);
    await expect(broke(page)).toContainText(`${lane} lane, at ${at}:`);
    expect(await markedLane(page)).toBe(lane);
    await expect(page.locator("svg.diagram .broke-ring").first()).toBeVisible();
    await expect(page.locator("svg.diagram .same-intent-label")).toHaveText("the same intent counted twice");
    // Before the second increment (6.00 s) nothing has broken yet, and the
    // mark is not there to give it away.
    await page.getByRole("button", { name: "Previous event" }).click();
    await page.getByRole("button", { name: "Previous event" }).click();
    await expect(broke(page)).toContainText("Nothing has broken so far: the ledger holds 1 increment");
    // Drawn for the run, the ring and its words are not on screen yet,
    // not even greyed.
    await expect(page.locator("svg.diagram .broke-ring").first()).toBeHidden();
    await expect(page.locator("svg.diagram .broke-label").first()).toBeHidden();
    await expect(page.locator("svg.diagram .same-intent-label")).toBeHidden();
  });
}

test('with deduplication on "Where it broke" says nothing broke', async ({ page }) => {
  await open(page, "at=4.05");
  await expect(broke(page)).toHaveText(/Nothing broke: the ledger holds one increment for the one intent\./);
  await expect(page.locator("svg.diagram .broke-ring")).toHaveCount(0);
});

/** Every label of the diagram lies inside the diagram's visible box, and
 * nothing needs scrolling. */
async function labelsOutside(page) {
  return page.evaluate(() => {
    const scroller = document.querySelector(".timeline-scroll");
    const box = scroller.getBoundingClientRect();
    const out = [...scroller.querySelectorAll("svg.diagram text")]
      .filter((t) => getComputedStyle(t).visibility !== "hidden")
      .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
      .filter(({ r }) => r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
      .map(({ text }) => text);
    return { out, scrolls: scroller.scrollWidth > scroller.clientWidth + 1 };
  });
}

// The seed's runs at their ends: the opening run (4.05 s), its three
// breaks (6.05 s), and every success lost (three attempts, each timing
// out: 0, 4 and 9 s sent, the last deadline at 12.00 s).
const SEED_RUNS = ["at=4.05", "dedup=off&at=6.05", "retention=0&at=6.05", "key=per-attempt&at=6.05", "fault=lose-all&at=12", "fault=lose-all&dedup=off&at=12"];

for (const [name, viewport, extra] of [
  ["at 1280 x 900", { width: 1280, height: 900 }, ""],
  ["in presenter mode at 1920 x 1080", { width: 1920, height: 1080 }, "&present=1"],
  ["in the embed at 800 x 500", { width: 800, height: 500 }, "&embed=1"],
]) {
  test.describe(name, () => {
    test.use({ viewport });
    test("every label of every seed run lies inside the diagram's box", async ({ page }) => {
      for (const run of SEED_RUNS) {
        await page.goto(`/?${run}${extra}`);
        await page.locator("svg.diagram").first().waitFor();
        await expect.poll(() => labelsOutside(page), { message: run }).toEqual({ out: [], scrolls: false });
      }
    });
  });
}

test("at 0 s the strip reads counter 0 and no outcome; the end is a line of its own", async ({ page }) => {
  await open(page, "dedup=off&at=0");
  await expect(figure(page, "Committed counter")).toHaveText("0");
  await expect(figure(page, "Client outcome")).toHaveText("not yet: waiting for attempt 1");
  await expect(results(page).locator(".verdict")).toHaveCount(0);
  await expect(results(page).locator(".end-line")).toHaveText("At the end of the run (6.05 s): 2 increments; the client succeeded at 6.05 s.");
});

test("in presenter mode nothing after the playhead shows, nor the end of the run", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  // At 3.00 s attempt 1 has timed out; the retry (4.00 s) is still to come.
  await page.goto("/?dedup=off&at=3&present=1");
  await page.locator("svg.diagram").waitFor();
  const future = page.locator("svg.diagram .future");
  expect(await future.count()).toBeGreaterThan(5);
  const shown = await future.evaluateAll((els) => els.filter((e) => getComputedStyle(e).visibility !== "hidden").length);
  expect(shown).toBe(0);
  await expect(page.locator("svg.diagram text", { hasText: "attempt 2 sent" })).toBeHidden();
  await expect(page.locator(".end-line")).toHaveCount(0);
  await expect(page.locator(".verdict")).toHaveCount(0);
  // Labels are 24 px on the projector.
  const size = await page.locator("svg.diagram text").first().evaluate((t) => t.getBoundingClientRect().height);
  expect(size).toBeGreaterThanOrEqual(24);
});

test("the chart shades the gap between one intent and two increments before its right edge", async ({ page }) => {
  await open(page, "dedup=off&at=6.05");
  const gap = page.locator("svg.chart-svg rect.chart-gap");
  await expect(gap).toHaveCount(1);
  const [x, w, width] = await gap.evaluate((r) => [Number(r.getAttribute("x")), Number(r.getAttribute("width")), r.ownerSVGElement.width.baseVal.value]);
  // The band starts at the second increment (the retry, sent at 4.00 s,
  // commits 2 s later: on the 6.00 tick) and runs past the run's end
  // (6.05 s) to the plot's end, short of the chart's edge.
  const tick = (label) => page.locator("svg.chart-svg text.chart-label", { hasText: label }).evaluate((t) => Number(t.getAttribute("x")));
  const [four, six] = [await tick("4.00"), await tick("6.00")];
  expect(Math.abs(x - six)).toBeLessThan(1);
  const end = six + ((six - four) * 0.05) / 2; // 6.05 s, the end of the run
  expect(x + w).toBeGreaterThan(end);
  expect(x + w).toBeLessThan(width);
  expect(w).toBeGreaterThan(40);
  await expect(page.locator("svg.chart-svg .chart-gap-label")).toHaveText("1 more than the one intent");
  await open(page, "at=4.05");
  await expect(page.locator("svg.chart-svg rect.chart-gap")).toHaveCount(0);
});

test("the idempotency key is named where it is first used, and the words are defined", async ({ page }) => {
  await open(page);
  await expect(page.getByLabel("Server deduplicates operation keys (idempotency keys)")).toBeChecked();
  await page.getByText("Words used here").click();
  await expect(page.locator(".words dt", { hasText: "Idempotency key" })).toBeVisible();
  await expect(figure(page, "Deduplication hits").locator("xpath=..").locator(".term")).toHaveAttribute("title", /answered from what it remembered/);
});

test("Break it three ways asks where each run broke and marks it once answered", async ({ page }) => {
  await open(page);
  await page.getByRole("button", { name: "Break it three ways: where did idempotency break?" }).click();
  const panel = page.getByRole("region", { name: "Break it three ways" });
  const ways = panel.locator(".way");
  await expect(ways).toHaveCount(3);
  // One clock: the three diagrams are the same width.
  const widths = await ways.locator("svg.diagram").evaluateAll((s) => s.map((e) => e.getAttribute("width")));
  expect(new Set(widths).size).toBe(1);
  await expect(ways.nth(0).locator(".broke-ring")).toBeHidden();
  await ways.nth(0).getByLabel("Server", { exact: true }).check();
  await expect(ways.nth(0).locator(".way-verdict")).toContainText("Right: the Server lane.");
  await expect(ways.nth(0).locator(".broke-ring")).toBeVisible();
  await ways.nth(1).getByLabel("Client", { exact: true }).check();
  await expect(ways.nth(1).locator(".way-verdict")).toContainText("Not quite: you chose the Client lane; it broke in the Dedup store lane.");
  await ways.nth(2).getByLabel("Client", { exact: true }).check();
  await expect(ways.nth(2).locator(".way-verdict")).toContainText("Right: the Client lane.");
});

test("paced by events, each event gets its own stretch of the replay", async ({ page }) => {
  await page.clock.install();
  await open(page);
  await holdClock(page);
  await page.getByRole("combobox", { name: "Speed" }).selectOption("By event");
  const readout = page.locator(".readout output");
  // The opening run's stops: 0, 2.00, 2.05, 3.00, 4.00 and 4.05 s (the
  // timeout's deadline is an event), five gaps of 1.5 s each.
  await expect(readout).toHaveText("Model 0.00 s of 4.05 s · replay 0.0 s of 7.5 s");
  const model = async () => Number((await readout.textContent()).match(/^Model (\d+\.\d+) s/)[1]);
  await page.getByRole("button", { name: "Play" }).click();
  // 1.6 s in, the playhead is past the first stop (2.00 s) and short of
  // the second (2.05 s); at 1x it would be at 4.05 × 1.6 / 60 = 0.108 s.
  // 0.1 s into the 1.5 s from 2.00 to 2.05 s is 2.003 s.
  await page.clock.runFor(1_600);
  let t = await model();
  expect(t).toBeGreaterThanOrEqual(2.0);
  expect(t).toBeLessThan(2.01);
  // 4.6 s in (three gaps of 1.5 s done), it is 0.1 s into the fourth, from
  // 3.00 to 4.00 s: 3.067 s (or a frame of 0.011 s short).
  await page.clock.runFor(3_000);
  t = await model();
  expect(t).toBeGreaterThan(3.05);
  expect(t).toBeLessThan(3.08);
});

// Every pattern: each switch's "Show me" run, where the check it protects
// holds (or has nothing to judge) with every pattern on and fails with
// that switch alone off. The per-replica gates' run is the wide fleet's,
// where without their bounded queues calls wait past their bounds; the
// global gate's is the wide fleet's too, where without it the Risk API's
// own limit refuses the excess and leaves rows UNKNOWN.
const SWITCHES = [
  ["Unique request_key", "Same request_key, one row"],
  ["Unique business_key", "Same order, one review"],
  ["Timeout is UNKNOWN", "Only legal transitions"],
  ["Idempotent create", "One review per business key"],
  ["FindByRequestKey", "UNKNOWN gets resolved"],
  ["Compare-and-set claims", "One claim wins"],
  ["Authorization on the server", "A forged call goes nowhere"],
  ["Concurrency gates", "Overload is fast and bounded"],
  ["Global concurrency gate", "UNKNOWN gets resolved"],
  ["Risk API admission limit", "The Risk API within its safe concurrency"],
  ["Deadline propagation", "No side effect after its caller gave up"],
  ["Business errors as Tool Results", "A business error is a Tool Result"],
  ["End user from the verified token", "A forged call goes nowhere"],
  ["Strict input schema", "Arguments outside the schema are refused"],
  ["Own credential downstream", "The caller's token stays at the server"],
  ["Agent polls the review_id", "One review per business key"],
];

const checkWord = (page, title) => page.locator(".checks li", { hasText: title }).locator(".verdict-word");

test("every risk switch's Show me opens a run where its check holds, and fails with the switch off", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/?lab=risk");
  for (const [label, title] of SWITCHES) {
    await page.getByRole("button", { name: `Show me: ${label}` }).click();
    await expect(page.locator(".shown-me")).toContainText(
      new RegExp(`\u201c${title}\u201d (holds|has nothing to judge); with \u201c${label}\u201d off and nothing else changed, it fails\\.`),
    );
    await page.getByRole("slider", { name: "Time" }).press("End");
    await expect(checkWord(page, title)).not.toHaveText("fails");
    // Some switches are selects that also offer the report's wrong designs.
    const control = page.getByLabel(label, { exact: true });
    if ((await control.evaluate((el) => el.tagName)) === "SELECT") await control.selectOption("off");
    else await control.uncheck();
    await page.getByRole("slider", { name: "Time" }).press("End");
    await expect(checkWord(page, title)).toHaveText("fails");
  }
});

test('the naive incident has nothing for "UNKNOWN gets resolved" to judge', async ({ page }) => {
  await page.goto("/?lab=risk&preset=incident&mode=naive");
  await page.getByRole("slider", { name: "Time" }).press("End");
  await expect(checkWord(page, "UNKNOWN gets resolved")).toHaveText("not applicable");
});

test("the risk lab presents: 24 px labels at 1920 x 1080, the caption, checkpoints, Escape to leave", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.clock.install();
  // The naive incident; the agent's retry is at 10:31:12.000, model 3.880 s.
  await page.goto("/?lab=risk&preset=incident&mode=naive&present=1&pin=3.88:Will%20the%20retry%20make%20a%20second%20review%3F");
  await expect(page.locator(".app.risk.present")).toBeVisible();
  await expect(page.getByRole("region", { name: "Settings" })).toHaveCount(0);
  const heights = await page.locator(".diagram-layer svg text").evaluateAll((ts) => ts.slice(0, 20).map((t) => t.getBoundingClientRect().height));
  expect(Math.min(...heights)).toBeGreaterThanOrEqual(24);
  // Model 0 is 10:31:08.120, when the agent makes its first call.
  await expect(page.locator(".caption")).toContainText("10:31:08.120 (0.00 s): The agent, acting for u-1001, calls request_risk_review");
  await page.getByRole("combobox", { name: "Speed" }).selectOption("4x");
  await page.getByRole("button", { name: "Play" }).click();
  await page.clock.runFor(20_000);
  await expect(page.locator(".checkpoint-question")).toHaveText("Will the retry make a second review?");
  await expect(page.locator(".caption")).toContainText("10:31:12.000");
  await page.keyboard.press("Escape");
  await expect(page.locator(".app.risk.present")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Settings" })).toBeVisible();
});

// A lesson of three steps: the opening run, deduplication off, and the
// naive incident in the risk lab.
const LESSON = [
  "Lesson: Three steps",
  "Step: The opening run",
  "At: 4.05",
  "Question: How many increments?",
  "Answer: One.",
  "Step: Deduplication off",
  "Settings: dedup=off",
  "At: 6.05",
  "Step: The incident",
  "Lab: risk",
  "Settings: preset=incident&mode=naive",
].join("\n");

test("a lesson link steps forward with PageDown and back with PageUp in presenter mode, across labs", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`/?present=1&lesson=${encodeURIComponent(LESSON)}`);
  const heading = page.locator(".lesson h2");
  await expect(heading).toHaveText("Step 1 of 3: The opening run");
  // The step asks: until its answer is shown, what is to come stays hidden,
  // the run's end too.
  await expect(page.locator(".readout output")).toHaveText("Model 4.05 s; what comes next is hidden");
  await page.getByRole("button", { name: "Show the answer" }).click();
  await expect(page.locator(".lesson-answer")).toHaveText("One.");
  await page.keyboard.press("PageDown");
  await expect(heading).toHaveText("Step 2 of 3: Deduplication off");
  await expect(broke(page)).toContainText("Server lane, at 4.00 s:");
  await expect(page.locator(".app.present")).toBeVisible();
  await page.keyboard.press("PageDown");
  await expect(heading).toHaveText("Step 3 of 3: The incident");
  await expect(page).toHaveURL(/lab=risk/);
  await expect(page.locator(".app.risk.present")).toBeVisible();
  await expect(page.locator(".caption")).toBeVisible();
  await page.keyboard.press("PageDown");
  await expect(page.locator("[aria-live]").first()).toContainText('This is the last step of "Three steps".');
  await page.keyboard.press("PageUp");
  await expect(heading).toHaveText("Step 2 of 3: Deduplication off");
  await expect(page).not.toHaveURL(/lab=risk/);
  await page.keyboard.press("PageUp");
  await expect(heading).toHaveText("Step 1 of 3: The opening run");
  await expect(page.locator(".app.present")).toBeVisible();
});

test("in presenter mode the down and up arrows step through a lesson too; out of it they scroll", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`/?present=1&lesson=${encodeURIComponent(LESSON)}`);
  const heading = page.locator(".lesson h2");
  await expect(heading).toHaveText("Step 1 of 3: The opening run");
  // The first step asks: the first press shows its answer, the next goes on.
  await page.keyboard.press("ArrowDown");
  await expect(page.locator(".lesson-answer")).toHaveText("One.");
  await page.keyboard.press("ArrowDown");
  await expect(heading).toHaveText("Step 2 of 3: Deduplication off");
  await page.keyboard.press("ArrowDown");
  await expect(heading).toHaveText("Step 3 of 3: The incident");
  await expect(page.locator(".app.risk.present")).toBeVisible();
  await page.keyboard.press("ArrowUp");
  await expect(heading).toHaveText("Step 2 of 3: Deduplication off");
  await page.goto(`/?lesson=${encodeURIComponent(LESSON)}`);
  await expect(heading).toHaveText("Step 1 of 3: The opening run");
  await page.locator("h1").click();
  await page.keyboard.press("ArrowDown");
  // The page scrolls, as the arrow does anywhere, and the step stays.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await expect(heading).toHaveText("Step 1 of 3: The opening run");
});

test("a lesson step in the storm lab shows the lesson and steps on with the keys", async ({ page }) => {
  const lesson = ["Lesson: Storms too", "Step: One client", "Step: Many clients", "Lab: storms"].join("\n");
  await page.goto(`/?lesson=${encodeURIComponent(lesson)}&step=2`);
  await expect(page).toHaveURL(/lab=storms/);
  await expect(page.locator(".lesson h2")).toHaveText("Step 2 of 2: Many clients");
  await page.keyboard.press("PageUp");
  await expect(page.locator(".lesson h2")).toHaveText("Step 1 of 2: One client");
  await expect(page).not.toHaveURL(/lab=storms/);
});

test("a lesson imported as a file opens its first step; a broken one says which line", async ({ page }) => {
  await open(page);
  const file = (name, text) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });
  await page.getByLabel("Import settings or a lesson").setInputFiles(file("mine.lesson", "Step: a\nLab: moon"));
  await expect(page.locator(".notice").last()).toContainText('mine.lesson: lesson line 2: Lab: "moon" is not a lab; allowed: ack, risk, storms. Nothing changed.');
  await page.getByLabel("Import settings or a lesson").setInputFiles(file("mine.lesson", LESSON));
  await expect(page.locator(".lesson h2")).toHaveText("Step 1 of 3: The opening run");
});

test("without a lesson PageDown steps to the next event", async ({ page }) => {
  await open(page);
  await page.keyboard.press("PageDown");
  await expect(page.locator(".readout output")).toContainText("Model 2.00 s of 4.05 s");
  await page.keyboard.press("PageUp");
  await expect(page.locator(".readout output")).toContainText("Model 0.00 s of 4.05 s");
});

test.describe("the 800 x 500 embed", () => {
  test.use({ viewport: { width: 800, height: 500 } });
  test("shows its results without scrolling, and its snippet is as tall as that", async ({ page }) => {
    await page.goto("/?dedup=off&at=6.05&embed=1");
    const strip = results(page);
    await expect(strip).toBeInViewport({ ratio: 1 });
    await expect(figure(page, "Committed counter")).toHaveText("2");
    await page.goto("/?dedup=off&at=6.05");
    await page.getByRole("button", { name: "Embed" }).click();
    const snippet = await page.locator("#share-text").inputValue();
    const height = Number(snippet.match(/height="(\d+)"/)[1]);
    expect(height).toBeLessThanOrEqual(520);
  });
});

test("a lesson in a custom element steps inside the element, the host page's address and state unchanged", async ({ page }) => {
  const address = `${hostOrigin}/element-lesson?doc=retries#lab`;
  await page.goto(address);
  const lab = page.locator("idempotency-lab");
  const heading = lab.locator("#lesson-h");
  await expect(heading).toHaveText("Step 1 of 3: One");
  await page.evaluate(() => (window.stillHere = true));
  await lab.getByRole("button", { name: "Next step" }).click();
  await expect(heading).toHaveText("Step 2 of 3: Two");
  // Retention 0: the dedup store's lane is where it broke.
  await expect(lab.getByRole("region", { name: "Where it broke" })).toContainText("Dedup store lane, at 2.00 s:");
  expect(page.url()).toBe(address);
  expect(await page.evaluate(() => window.stillHere)).toBe(true);
  // From the keyboard too: the step's heading has the focus.
  await expect(heading).toBeFocused();
  await page.keyboard.press("PageDown");
  await expect(heading).toHaveText("Step 3 of 3: Three");
  await lab.getByRole("button", { name: /^Start the lesson: / }).first().click();
  await expect(heading).toHaveText(/^Step 1 of 5: /);
  expect(page.url()).toBe(address);
  expect(await page.evaluate(() => window.stillHere)).toBe(true);
});

test("the element example shows each run at its end, as its words say", async ({ page }) => {
  await page.goto("/examples/element.html");
  const labs = page.locator("idempotency-lab");
  const counter = (lab) => lab.locator(".figure", { hasText: "Committed counter" }).locator("dd");
  const outcome = (lab) => lab.locator(".figure", { hasText: "Client outcome" }).locator("dd");
  await expect(counter(labs.nth(0))).toHaveText("1");
  await expect(counter(labs.nth(1))).toHaveText("2");
  await expect(outcome(labs.nth(0))).toHaveText("succeeded at 4.05 s");
  await expect(outcome(labs.nth(1))).toHaveText("succeeded at 6.05 s");
  await expect(page.locator("main p").nth(1)).toContainText("one increment and the client reports success");
  await expect(page.locator("main p").nth(2)).toContainText("two increments and the client reports success");
});

test('the risk lab says where it broke once the second review is made, and rings it', async ({ page }) => {
  // The naive incident: RV-2 at 4.411 s on the Risk API's lane (see
  // src/view/risk/broke.rs for the figures worked by hand).
  await page.goto("/?lab=risk&preset=incident&mode=naive&at=4.4");
  const region = page.locator("section.where-it-broke");
  // Before RV-2 it says what has already failed (the illegal FAILED at
  // 08.120 + 2.622 = 10.742), never that nothing broke, and nothing of the
  // second review still to come.
  await expect(region).toContainText("\u201cOnly legal transitions\u201d first failed at 10:31:10.742 (2.622 s)");
  await expect(region).not.toContainText("second review");
  await expect(region).not.toContainText("Nothing");
  // The diagram is drawn, and what has failed so far is rung.
  await expect(page.locator(".diagram [data-record]").first()).toBeAttached();
  await expect(page.locator(".diagram .broke").first()).toBeAttached();
  await page.getByRole("slider", { name: "Time" }).press("End");
  await expect(region).toContainText("Risk API lane, at 10:31:12.531 (4.411 s): The Risk API created a second review, RV-2, for order O20260728001.");
  await expect(region).toContainText("\u201cOne review per business key\u201d first failed at 10:31:12.531 (4.411 s) on the Risk API lane; the switches that protect it, \u201cIdempotent create\u201d and \u201cAgent polls the review_id\u201d, are off.");
  await expect(page.locator(".diagram .broke").first()).toBeAttached();
  await page.goto("/?lab=risk&preset=incident&mode=patterns");
  await page.getByRole("slider", { name: "Time" }).press("End");
  await expect(region).toHaveText(/Nothing broke: every check holds\./);
});

test("while comparing, the risk lab's Where it broke speaks for both runs", async ({ page }) => {
  // Run B is the naive incident with idempotent create: the retry's create
  // carries rk-0001 again and gets RV-1 back, so B has no second review.
  await page.goto("/?lab=risk&preset=incident&mode=naive&b.idem=on&at=30");
  const region = page.locator("section.where-it-broke");
  await expect(region).toContainText("Run A: Risk API lane, at 10:31:12.531 (4.411 s): The Risk API created a second review, RV-2, for order O20260728001.");
  // B has no second review, but the retry's row is a second one for
  // rk-0001: that is its worst harm, not "Nothing broke".
  await expect(region).not.toContainText("Run B: Nothing broke");
  await expect(region).toContainText(/Run B: .*: Request_key rk-0001 got a second row/);
});
