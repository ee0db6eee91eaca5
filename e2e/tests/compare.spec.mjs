// Compare and fork, links with two runs, presenter mode with checkpoints,
// and the <idempotency-lab> custom element. Expected figures are MODEL.md's
// worked example: with deduplication attempt 2 is answered from the stored
// result at 4.00 s (1 increment, acknowledged at 4.05 s); without, it runs
// again and commits at 6.00 s (2 increments, acknowledged at 6.05 s).
import { readFileSync } from "node:fs";
import { test, expect, open, mirror, figure, endFigure, modelTime, hostOrigin, seriousViolations, expectModelTime } from "./fixtures.mjs";


function differences(page) {
  return page.getByRole("region", { name: "Differences" });
}

/** The text of one line of the differences, found by its exact label. */
function diffLine(page, label) {
  return differences(page)
    .locator(".diff-line")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");
}

function runB(page) {
  return page.getByRole("region", { name: "Run B", exact: true });
}

/** Steps event by event, each step seen on screen before the next, until
 * the playhead is at `time`. */
async function stepTo(page, time) {
  for (let i = 0; i < 12; i++) {
    const now = await modelTime(page);
    if (now === time) break;
    await page.getByRole("button", { name: "Next event" }).click();
    await expect(mirror(page)).not.toContainText(`Model time: ${now} s`);
  }
  await expectModelTime(page, time);
}

/** The x of the playhead line in each diagram. */
async function playheadXs(page) {
  return page.locator("svg.diagram line.playhead").evaluateAll((lines) => lines.map((l) => l.getAttribute("x1")));
}

test("compare dedup on with off: 1 increment against 2, diverging at 4.00 s", async ({ page }) => {
  await open(page);
  await page.getByRole("button", { name: "Compare with…" }).click();
  await runB(page).getByLabel("Setting to change in run B").selectOption({ label: "Server deduplicates operation keys (idempotency keys)" });
  await runB(page).getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await expect(runB(page).locator(".compare-summary")).toHaveText(
    "Run B is run A with Server deduplicates operation keys (idempotency keys): on → off.",
  );
  await expect(diffLine(page, "Counter")).toHaveText("A: 1 increment, B: 2 increments");
  await expect(diffLine(page, "Client outcome")).toHaveText(
    "A: succeeded at 4.05 s, B: succeeded at 6.05 s (both report success)",
  );
  const first = diffLine(page, "First divergence");
  await expect(first).toContainText("at 4.00 s");
  await expect(first).toContainText("A: attempt 2 replayed attempt 1's stored result");
  await expect(first).toContainText("B: attempt 2 executed");
  await expect(diffLine(page, "Only in A's ledger")).toHaveText("none");
  await expect(diffLine(page, "Only in B's ledger")).toHaveText("+1 at 6.00 s by attempt 2 (key intent-1, payload A)");

  // Two diagrams on one clock: the divergence is marked in both, and one
  // playhead is at the same x in both.
  const diagrams = page.locator("svg.diagram");
  await expect(diagrams).toHaveCount(2);
  await expect(diagrams.nth(0).locator("text.diverge").first()).toBeVisible();
  await expect(diagrams.nth(1).locator("text.diverge").first()).toBeVisible();
  await stepTo(page, "4.00");
  const xs = await playheadXs(page);
  expect(xs.length).toBe(2);
  expect(xs[0]).toBe(xs[1]);
  // The shared clock runs on to B's end.
  await stepTo(page, "6.05");

  // The text mirror describes both runs and the difference.
  const text = mirror(page);
  await expect(text).toContainText("Run B is run A with Server deduplicates operation keys (idempotency keys): on → off.");
  await expect(text).toContainText("Run A (it ended at 4.05 s):");
  await expect(text).toContainText("Run B (it ended at 6.05 s):");
  await expect(text).toContainText("Counter: A: 1 increment, B: 2 increments");

  await runB(page).getByRole("button", { name: "Close comparison" }).click();
  await expect(differences(page)).toHaveCount(0);
  await expect(diagrams).toHaveCount(1);
});

test("fork at attempt 2 with a new key: the runs agree before 4.00 s", async ({ page }) => {
  await open(page);
  await stepTo(page, "4.00");
  await page.getByRole("button", { name: "Fork here" }).click();
  await expect(runB(page)).toContainText("Forked at 4.00 s");
  await runB(page).getByLabel("Setting to change in run B").selectOption({ label: "Retry key" });
  await runB(page).getByLabel("Retry key").selectOption({ label: "New key for every attempt" });
  await expect(diffLine(page, "Fork")).toHaveText("at 4.00 s: the runs agree on every event before the fork");
  await expect(diffLine(page, "First divergence")).toContainText("at 4.00 s");
  await expect(diffLine(page, "First divergence")).toContainText("B: attempt 2 sent with key attempt-2");
  await expect(diffLine(page, "Counter")).toHaveText("A: 1 increment, B: 2 increments");
});

test("a setting that acts early is reported by the fork check", async ({ page }) => {
  await open(page);
  await stepTo(page, "4.00");
  await page.getByRole("button", { name: "Fork here" }).click();
  await runB(page).getByLabel("Setting to change in run B").selectOption({ label: "Response transit" });
  await runB(page).getByLabel("Response transit").fill("0.08");
  await expect(diffLine(page, "Fork")).toHaveText(
    "at 4.00 s, but the runs already differ at 2.05 s: the changed setting acts before the fork",
  );
});

test("a link carrying both runs reopens them", async ({ page, context }) => {
  await open(page);
  await stepTo(page, "4.00");
  await page.getByRole("button", { name: "Fork here" }).click();
  await runB(page).getByLabel("Setting to change in run B").selectOption({ label: "Server deduplicates operation keys (idempotency keys)" });
  await runB(page).getByLabel("Server deduplicates operation keys (idempotency keys)").uncheck();
  await expect(diffLine(page, "Counter")).toHaveText("A: 1 increment, B: 2 increments");
  await expect(page).toHaveURL(/b\.dedup=off/);
  await expect(page).toHaveURL(/fork=4/);
  const link = page.url();

  const other = await context.newPage();
  await other.goto(link);
  await expect(diffLine(other, "Counter")).toHaveText("A: 1 increment, B: 2 increments");
  await expect(diffLine(other, "Fork")).toHaveText("at 4.00 s: the runs agree on every event before the fork");
  await expect(other.locator("svg.diagram")).toHaveCount(2);
  await expectModelTime(other, "4.00");
});

test("a broken or hostile second run in a link gets a notice and run A alone", async ({ page }) => {
  await open(page, "dedup=off&b.dedup=%3Cscript%3Ealert(1)%3C%2Fscript%3E&b.timeout=zz");
  const notice = page.locator(".notice-text").first();
  await expect(notice).toContainText("b.");
  await expect(notice).toContainText("The second run was not opened; run A is shown alone.");
  await expect(differences(page)).toHaveCount(0);
  await expect(page.locator("svg.diagram")).toHaveCount(1);
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  await expect(page.locator("script", { hasText: "alert" })).toHaveCount(0);

  await open(page, "b.moon=1");
  await expect(page.locator(".notice-text").first()).toContainText("b.moon");
  await expect(await endFigure(page, "Committed counter")).toHaveText("1");
});

test("exports carry both runs", async ({ page }) => {
  await open(page, "b.dedup=off");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export run (JSON)" }).click();
  const file = await (await download).path();
  const json = JSON.parse(readFileSync(file, "utf8"));
  expect(json.a.committed).toBe(1);
  expect(json.b.committed).toBe(2);
  expect(json.b.settings.dedup).toBe("off");
  expect(json.differences.first_divergence.t_ms).toBe(4000);

  // Importing the file on a fresh page opens both runs again.
  await open(page);
  await expect(differences(page)).toHaveCount(0);
  await page.locator("#import-file").setInputFiles(file);
  await expect(diffLine(page, "Counter")).toHaveText("A: 1 increment, B: 2 increments");
  await expect(runB(page).locator(".compare-summary")).toHaveText(
    "Run B is run A with Server deduplicates operation keys (idempotency keys): on → off.",
  );
  await expect(page).toHaveURL(/b\.dedup=off/);
  // The notice the opening page gave comes along.
  await expect(page.locator(".notice-text")).toHaveText([/^Imported settings from /]);
});

test.describe("presenter mode", () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test("labels of at least 24 px, a caption, no settings, keyboard stepping", async ({ page }) => {
    await open(page);
    await page.getByRole("button", { name: "Present", exact: true }).click();
    await expect(page.getByRole("region", { name: "Settings" })).toHaveCount(0);
    const sizes = await page.locator("svg.diagram text").evaluateAll((texts) =>
      texts.map((t) => {
        const svg = t.ownerSVGElement;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return parseFloat(getComputedStyle(t).fontSize) * scale;
      }),
    );
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(24);
    const caption = page.locator(".caption");
    await expect(caption).toContainText("0.00 s: Client sends attempt 1 with key intent-1");
    expect(await caption.evaluate((c) => parseFloat(getComputedStyle(c).fontSize))).toBeGreaterThanOrEqual(28);
    await page.keyboard.press("ArrowRight");
    await expect(caption).toContainText("2.00 s:");
    await expectModelTime(page, "2.00");
    await expect(page).toHaveURL(/present=1/);
    await page.getByRole("button", { name: "Exit presentation" }).click();
    await expect(page.getByRole("region", { name: "Settings" })).toBeVisible();
    // Escape leaves presenter mode too.
    await page.getByRole("button", { name: "Present", exact: true }).click();
    await expect(page.getByRole("region", { name: "Settings" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("region", { name: "Settings" })).toBeVisible();
    await expect(page).not.toHaveURL(/present=1/);
  });

  test("a pinned checkpoint stops playback at its event until the presenter continues", async ({ page, context }) => {
    await open(page);
    await stepTo(page, "2.05");
    const question = page.getByLabel("Question at 2.05 s");
    await question.fill("Will the client retry?");
    await page.getByRole("button", { name: "Pin a checkpoint", exact: true }).click();
    await expect(page.locator(".pin-list")).toContainText("2.05 s: Will the client retry?");
    await expect(page).toHaveURL(/pin=2\.05/);
    const link = page.url();

    // The checkpoint travels in the link, into presenter mode.
    const other = await context.newPage();
    await other.clock.install();
    await other.setViewportSize({ width: 1920, height: 1080 });
    await other.goto(link.replace(/at=[^&]*/, "at=0") + "&present=1");
    await expect(other.locator(".caption")).toBeVisible();
    await other.getByLabel("Speed").selectOption("4x");
    await other.getByRole("button", { name: "Play" }).click();
    // At 4x the run's 60 inspection seconds take 15 s: 2.05 s comes after
    // about 7.6 s.
    await other.clock.runFor(10_000);
    const prompt = other.getByRole("region", { name: "Checkpoint at 2.05 s" });
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText("Will the client retry?");
    await expect(other.getByRole("button", { name: "Play" })).toBeVisible();
    await expectModelTime(other, "2.05");
    // It stays put until the presenter continues: five more seconds of
    // frames and timers move nothing.
    await other.clock.runFor(5_000);
    await expectModelTime(other, "2.05");
    await prompt.getByRole("button", { name: "Continue" }).click();
    await expect(prompt).toHaveCount(0);
    await expect(other.getByRole("button", { name: "Pause" })).toBeVisible();
  });
});

test.describe("custom element", () => {
  const readout = (lab) => lab.locator(".readout output");

  test("two elements on one page play and step independently", async ({ page }) => {
    await page.goto("/examples/element.html");
    const labs = page.locator("idempotency-lab");
    await expect(labs).toHaveCount(2);
    const [first, second] = [labs.nth(0), labs.nth(1)];
    await expect(first.locator("svg.diagram")).toBeVisible();
    await expect(second.locator("svg.diagram")).toBeVisible();
    // Each is shown at its end (the replayed success at 4.05 s; the second
    // attempt's success at 6.05 s), as the words beside it say.
    await expect(readout(first)).toContainText("Model 4.05 s of 4.05 s");
    await expect(readout(second)).toContainText("Model 6.05 s of 6.05 s");

    await first.getByRole("button", { name: "Previous event" }).click();
    await expect(readout(first)).toContainText("Model 4.00 s of 4.05 s");
    await expect(readout(second)).toContainText("Model 6.05 s of 6.05 s");
    // Keys go to the element that has the focus.
    await second.getByRole("button", { name: "Previous event" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(readout(second)).not.toContainText("Model 6.05 s of");
    await expect(readout(first)).toContainText("Model 4.00 s of 4.05 s");

    await first.getByRole("button", { name: "Play" }).click();
    await expect(first.getByRole("button", { name: "Pause" })).toBeVisible();
    await expect(second.getByRole("button", { name: "Play" })).toBeVisible();

    // Separate ids and live regions in each.
    const ids = await labs.evaluateAll((els) =>
      els.map((el) => {
        const list = [...el.shadowRoot.querySelectorAll("[id]")].map((e) => e.id);
        return { unique: new Set(list).size === list.length, live: el.shadowRoot.querySelectorAll("[aria-live]").length };
      }),
    );
    for (const { unique, live } of ids) {
      expect(unique).toBe(true);
      expect(live).toBeGreaterThan(0);
    }
    // The host page's own look is untouched by the lab's styles.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("Georgia");
  });

  test.describe("accessibility", () => {
    test.use({ bypassCSP: true });
    test("axe finds no serious or critical violations on the example host page", async ({ page }) => {
      await page.goto("/examples/element.html");
      await expect(page.locator("idempotency-lab").nth(1).locator("svg.diagram")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  test("theme, accent and font attributes and the host's custom properties restyle an element; one wasm for all", async ({ page }) => {
    const wasm = [];
    page.on("request", (r) => r.url().endsWith(".wasm") && wasm.push(new URL(r.url()).pathname));
    await page.goto(`${hostOrigin}/element-look`);
    const labs = page.locator("idempotency-lab");
    await expect(labs.nth(0).locator("svg.diagram")).toBeVisible();
    await expect(labs.nth(1).locator("svg.diagram")).toBeVisible();
    const looks = await labs.evaluateAll((els) =>
      els.map((el) => ({
        theme: el.getAttribute("data-theme"),
        accent: el.style.getPropertyValue("--il-accent"),
        font: el.style.getPropertyValue("--il-font"),
        play: getComputedStyle(el.shadowRoot.querySelector("button.play")).backgroundColor,
        text: getComputedStyle(el.shadowRoot.querySelector(".app")).fontFamily,
      })),
    );
    // The first: dark, an accent of #aa3300 on its Play button, a monospace font.
    expect(looks[0].theme).toBe("dark");
    expect(looks[0].accent).toBe("#aa3300");
    expect(looks[0].play).toBe("rgb(170, 51, 0)");
    expect(looks[0].text).toContain("monospace");
    // The second: the host page's --il-accent on the element.
    expect(looks[1].accent).toBe("");
    expect(looks[1].play).toBe("rgb(17, 119, 51)");
    expect(looks[1].text).not.toContain("monospace");
    // Two elements, one WebAssembly download and compile.
    expect(wasm).toEqual(["/ack/ack_bg.wasm"]);
  });

  test("from another origin, with bad attributes: a notice, and the lab still runs", async ({ page }) => {
    await page.goto(`${hostOrigin}/element`);
    const labs = page.locator("idempotency-lab");
    await expect(labs).toHaveCount(2);
    const bad = labs.nth(0);
    await expect(bad.locator("svg.diagram")).toBeVisible();
    const notices = bad.locator(".notice-text");
    await expect(notices.filter({ hasText: "dedup" })).toContainText("allowed: one of on, off");
    await expect(notices.filter({ hasText: "at:" })).toContainText("not a number of seconds");
    await expect(readout(bad)).toContainText("Model 0.00 s of 4.05 s");
    await bad.getByRole("button", { name: "Next event" }).click();
    await expect(readout(bad)).toContainText("Model 2.00 s");
    await expect(labs.nth(1).locator(".notice-text")).toHaveCount(0);
  });
});
