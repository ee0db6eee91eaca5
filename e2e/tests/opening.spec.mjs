// The first lab's opening run, written into the page at build time
// (`idempotency-lab opening`): shown before any WebAssembly arrives, and
// with JavaScript off; the same words and the same layout as the live lab
// at the opening playhead; never shown for a link that opens anything else.
import { test, expect, mirror, seriousViolations } from "./fixtures.mjs";

const WIDE = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** A new page of `context` whose console errors (a refusal by the strict
 * Content-Security-Policy among them) fail the test when `closeWatched`
 * closes the context. */
async function watched(context) {
  const page = await context.newPage();
  context.problems ??= [];
  page.on("console", (m) => m.type() === "error" && context.problems.push(m.text()));
  page.on("pageerror", (e) => context.problems.push(e.message));
  return page;
}

/** Closes `context`, then fails the test if a page of it (see `watched`)
 * logged an error or threw: in the test itself, where a failure counts. */
async function closeWatched(context) {
  await context.close();
  expect(context.problems ?? [], "console errors and page errors").toEqual([]);
}

/** A page whose host script does nothing: what the reader sees before
 * the lab starts (nothing replaces the page's own markup). */
async function beforeTheLab(browser, options, query = "") {
  const context = await browser.newContext({ ...options, serviceWorkers: "block" });
  const page = await watched(context);
  await page.route("**/boot.js", (route) => route.fulfill({ contentType: "text/javascript", body: "export {};" }));
  await page.goto(`/${query}`, { waitUntil: "domcontentloaded" });
  return { context, page };
}

/** The live lab at the opening playhead, settled. */
async function live(browser, options, query = "") {
  const context = await browser.newContext({ ...options, serviceWorkers: "block" });
  const page = await watched(context);
  await page.goto(`/${query}`);
  await expect(page.locator(".prerendered")).toHaveCount(0);
  await expect(page.locator(".readout")).toContainText("Model 0.00 s");
  await settled(page);
  return { context, page };
}

/** Waits until the diagram has been redrawn for its box (it is drawn
 * once more when the box is measured): the same width for five frames. */
async function settled(page) {
  await page.evaluate(async () => {
    const width = () => [...document.querySelectorAll("svg.diagram")].find((d) => d.checkVisibility())?.getAttribute("width");
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    for (let same = 0, last = width(); same < 5; ) {
      await frame();
      const now = width();
      same = now === last ? same + 1 : 0;
      last = now;
    }
  });
}

/** What the reader reads: the visible text of each part of the page. */
/** The shown copy of the page (the written one, or the live lab): the
 * visible text of each of `parts` (a name and a selector each), and the
 * visible SVGs `drawing`'s names, descriptions, labels and sizes, and the
 * values of the `controls`. */
function shownWords(page, parts, drawing, controls) {
  return page.evaluate(
    ([parts, drawing, controls]) => {
      const shown = (el) => el.checkVisibility();
      const root = [...document.querySelectorAll(".lab-root")].find(shown);
      const text = (selector) =>
        [...root.querySelectorAll(selector)]
          .filter(shown)
          .map((el) => el.innerText.replace(/\s+/g, " ").trim())
          .join(" | ");
      const svgs = [...root.querySelectorAll(drawing)].filter(shown);
      return {
        ...Object.fromEntries(Object.entries(parts).map(([name, selector]) => [name, text(selector)])),
        drawings: svgs.map((d) => ({
          name: d.querySelector("title")?.textContent ?? d.getAttribute("aria-label"),
          description: d.querySelector("desc")?.textContent,
          labels: [...d.querySelectorAll("text")].map((t) => t.textContent).join(" "),
          size: [d.getAttribute("width"), d.getAttribute("height")],
          futureMarks: d.querySelectorAll(".future").length,
          playhead: d.querySelector(".playhead")?.getAttribute("x1"),
        })),
        controls: [...root.querySelectorAll(controls)].map((c) =>
          c.type === "checkbox" ? `${c.id}=${c.checked}` : `${c.id}=${c.value}`,
        ),
      };
    },
    [parts, drawing, controls],
  );
}

/** What the reader reads of the first lab (its drawings' words, not their
 * sizes, which the boxes compare within 2 px). */
async function words(page) {
  const seen = await shownWords(
    page,
    {
      results: ".results",
      broke: ".where-it-broke",
      timelineHint: ".timeline > .hint",
      events: ".event-list",
      mirror: ".mirror-text",
      readout: ".readout",
    },
    "svg.diagram",
    ".controls input, .controls select",
  );
  for (const drawing of seen.drawings) delete drawing.size;
  return seen;
}

/** The boxes whose place must not move as the live lab takes over. */
function boxes(page) {
  return page.evaluate(() => {
    const shown = (el) => el.checkVisibility();
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
    };
    const diagram = [...document.querySelectorAll("svg.diagram")].find(shown);
    const results = [...document.querySelectorAll(".results")].find(shown);
    const shownOne = (selector) => [...document.querySelectorAll(selector)].find(shown);
    return {
      timeline: box(diagram),
      results: box(results),
      figures: [...results.querySelectorAll(".figure")].map(box),
      // What follows the diagram, where it is shown.
      later: [".playback", ".events", ".mirror"].map(shownOne).filter(Boolean).map(box),
    };
  });
}

function expectNear(a, b, path = "") {
  if (typeof a === "number") {
    expect(Math.abs(a - b), `${path}: ${a} against ${b}`).toBeLessThanOrEqual(2);
    return;
  }
  expect(Object.keys(a)).toEqual(Object.keys(b));
  for (const key of Object.keys(a)) expectNear(a[key], b[key], `${path}.${key}`);
}

test("with JavaScript off the page shows the opening run: its timeline, results and mirror, as the live lab words them", async ({ browser }) => {
  const off = await browser.newContext({ ...WIDE, javaScriptEnabled: false });
  const page = await watched(off);
  await page.goto("/");
  await expect(page.locator("svg.diagram").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "At the playhead" })).toContainText("Committed counter0");
  await expect(mirror(page)).toContainText("Model time: 0.00 s (the run ends at 4.05 s)");
  // Every control says it cannot be used yet rather than ignoring the reader.
  await expect(page.getByRole("button", { name: "Play" })).toBeDisabled();
  await expect(page.getByRole("checkbox", { name: /Server deduplicates/ })).toBeDisabled();
  const seen = await words(page);
  const { context, page: lab } = await live(browser, WIDE);
  expect(seen).toEqual(await words(lab));
  await closeWatched(off);
  await closeWatched(context);
});

for (const [name, options, query] of [
  ["a 1280-pixel window", WIDE, ""],
  ["a 360-pixel phone", PHONE, ""],
  ["the embed's 800 x 500 frame", { viewport: { width: 800, height: 500 } }, "?embed=1"],
  ["the embed on a 360-pixel phone", PHONE, "?embed=1"],
]) {
  test(`on ${name} the opening run and the live lab have the same words and the same layout`, async ({ browser }) => {
    const before = await beforeTheLab(browser, options, query);
    await expect(before.page.locator(".prerendered svg.diagram:visible")).toHaveCount(1);
    await expect(before.page.locator(".prerendered:visible")).toHaveCount(1);
    const staticWords = await words(before.page);
    const staticBoxes = await boxes(before.page);
    const after = await live(browser, options, query);
    expect(staticWords).toEqual(await words(after.page));
    expectNear(staticBoxes, await boxes(after.page), "boxes");
    await closeWatched(before.context);
    await closeWatched(after.context);
  });
}

test("axe finds nothing serious in the opening run as it stands before the lab starts", async ({ browser }) => {
  for (const [options, query] of [
    [WIDE, ""],
    [PHONE, ""],
    [{ viewport: { width: 800, height: 500 } }, "?embed=1"],
  ]) {
    // axe is put in the page as a script of its own, which the strict policy refuses.
    const { context, page } = await beforeTheLab(browser, { ...options, bypassCSP: true }, query);
    await expect(page.locator(".prerendered svg.diagram:visible")).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);
    await closeWatched(context);
  }
});

for (const query of ["?dedup=off", "?lab=storms&clients=100", "?lab=risk&preset=overload", "?embed=1&fault=none", "?at=2000"]) {
  test(`a link to ${query} never shows the opening run's counter or mirror, not even on its first paint`, async ({ browser }) => {
    // Before the host's script: the first paint, which the page's own
    // markup and styles decide.
    const before = await beforeTheLab(browser, WIDE, query);
    // The page's and the embed's.
    await expect(before.page.locator(".prerendered")).toHaveCount(2);
    for (const [shown, copies] of [
      [".counter", 2],
      [".mirror-text", 2],
      ["svg.diagram", 4],
    ]) {
      await expect(before.page.locator(`.prerendered ${shown}`)).toHaveCount(copies);
      for (const el of await before.page.locator(`.prerendered ${shown}`).all()) await expect(el).toBeHidden();
    }
    await closeWatched(before.context);

    // With the host: every frame from the first, until the lab is on screen.
    const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
    const page = await watched(context);
    await page.addInitScript(() => {
      window.openingFrames = [];
      const look = () => {
        const opening = document.querySelector(".prerendered");
        window.openingFrames.push(opening ? opening.checkVisibility({ visibilityProperty: true }) : null);
        if (!document.querySelector(".lab-root:not(.prerendered)")) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await page.goto(`/${query}`);
    await expect(page.locator(".lab-root:not(.prerendered)")).toHaveCount(1);
    await expect(page.locator(".prerendered, .lab-loading")).toHaveCount(0);
    const frames = await page.evaluate(() => window.openingFrames);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.filter((shown) => shown === true)).toEqual([]);
    await closeWatched(context);
  });
}

test("a link to the opening run itself keeps the page's markup until the lab replaces it", async ({ browser }) => {
  const { context, page } = await beforeTheLab(browser, WIDE, "?lab=ack&theme=dark");
  await expect(page.locator(".page-opening .counter")).toBeVisible();
  await expect(page.locator(".embed-opening")).toBeHidden();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await closeWatched(context);
});

test("a reader whose saved settings the page opens with never sees the opening run as theirs", async ({ browser }) => {
  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await watched(context);
  await page.goto("/");
  await expect(page.locator(".prerendered")).toHaveCount(0);
  await page.getByRole("checkbox", { name: /Server deduplicates/ }).uncheck();
  await expect(page.getByRole("region", { name: "At the playhead" })).toBeVisible();
  // Back later, before the lab has started: the opening run stays hidden.
  await page.route("**/boot.js", (route) => route.fulfill({ contentType: "text/javascript", body: "export {};" }));
  await page.goto("/");
  await expect(page.locator(".prerendered .counter")).toHaveCount(2);
  for (const el of await page.locator(".prerendered .counter").all()) await expect(el).toBeHidden();
  await page.unroute("**/boot.js");
  // And with the lab: the reader's own settings.
  await page.goto("/");
  await expect(page.locator(".prerendered, .lab-loading")).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: /Server deduplicates/ })).not.toBeChecked();
  await closeWatched(context);
});

test("the lab takes the opening run's place as the reader left it: scrolled, a disclosure open, the focus kept", async ({ browser }) => {
  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await watched(context);
  let release;
  const arrived = new Promise((resolve) => (release = resolve));
  await page.route("**/boot.js", async (route) => {
    await arrived;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  const written = page.locator(".page-opening");
  await expect(written.locator(".mirror-text")).toBeVisible();
  // The reader opens "Advanced" (the focus is on its summary) and scrolls
  // the state as text to near the top of the window.
  await written.getByText("Advanced", { exact: true }).click();
  await page.evaluate(() => {
    const mirror = document.querySelector(".page-opening .mirror");
    window.scrollBy(0, mirror.getBoundingClientRect().top - 40);
  });
  const before = await page.evaluate(() => document.querySelector(".mirror").getBoundingClientRect().top);
  release();
  await expect(page.locator(".prerendered")).toHaveCount(0);
  await expect(page.locator(".lab-root .controls details.advanced").first()).toHaveAttribute("open", "");
  await expect(page.locator(".lab-root .controls details.faults")).not.toHaveAttribute("open", "");
  expect(await page.evaluate(() => document.activeElement?.closest("details.advanced") !== null)).toBe(true);
  const after = await page.evaluate(() => document.querySelector(".mirror").getBoundingClientRect().top);
  expect(Math.abs(after - before), `the state as text at ${after} px, was ${before} px`).toBeLessThanOrEqual(2);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  await closeWatched(context);
});

test("a lab that cannot start leaves the opening run, no longer loading, with the reason above it", async ({ browser }) => {
  // (Not watched: the refused WebAssembly is a console error of its own.)
  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await context.newPage();
  await page.route("**/ack_bg.wasm", (route) => route.abort());
  await page.goto("/");
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("could not start");
  const written = page.locator(".page-opening");
  await expect(written.locator(".counter")).toBeVisible();
  await expect(written).not.toHaveAttribute("aria-busy", "true");
  await expect(written.locator(".opening-status")).toHaveCount(0);
  // The reason is where the reader looks first, before the page.
  expect(await page.evaluate(() => document.querySelector('[role="alert"]').compareDocumentPosition(document.querySelector(".page-opening")) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();
  await closeWatched(context);
});

test("in the window it was written for, no frame from the first paint to the settled lab moves the diagram or the text", async ({ browser }) => {
  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await watched(context);
  await page.addInitScript(() => {
    window.frames_ = [];
    const look = () => {
      const shown = (sel) => [...document.querySelectorAll(sel)].find((e) => e.checkVisibility());
      const [d, m] = [shown("svg.diagram"), shown(".mirror")];
      if (d && m) {
        const b = d.getBoundingClientRect();
        window.frames_.push([b.x, b.y, b.width, b.height, m.getBoundingClientRect().top, !!document.querySelector(".prerendered")]);
      }
      if (window.frames_.length < 400) requestAnimationFrame(() => setTimeout(look));
    };
    // Measured once each frame is rendered: a frame's callbacks run before
    // its layout knows which panels are on screen.
    requestAnimationFrame(() => setTimeout(look));
  });
  await page.goto("/");
  await expect(page.locator(".prerendered")).toHaveCount(0);
  await settled(page);
  const frames = await page.evaluate(() => window.frames_);
  expect(frames.some((f) => f[5]), "a frame of the written page").toBe(true);
  expect(frames.some((f) => !f[5]), "a frame of the live lab").toBe(true);
  const last = frames.at(-1);
  for (const f of frames) for (let i = 0; i < 5; i++) expect(Math.abs(f[i] - last[i]), `frame ${JSON.stringify(f)} against ${JSON.stringify(last)}`).toBeLessThanOrEqual(2);
  await closeWatched(context);
});

// Another lab's opening run: written at build time beside its bundle
// (`risk/opening.html`) and put in the page by first-paint.js for a link
// to that lab and nothing else.

/** What the reader reads of the risk lab's first screen. */
function riskWords(page) {
  return shownWords(
    page,
    {
      masthead: ".masthead .tagline",
      results: ".results",
      timelineHint: ".timeline > .hint",
      cue: ".timeline > .scroll-cue",
      readout: ".readout",
      settings: ".controls h2",
    },
    "svg.diagram",
    "#lab-switch, #f-preset, #risk-mode",
  );
}

/** Where the risk lab's first screen stands. */
function riskBoxes(page) {
  return page.evaluate(() => {
    const shown = (selector) => [...document.querySelectorAll(selector)].find((e) => e.checkVisibility());
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
    };
    return {
      results: box(shown(".results")),
      timeline: box(shown("svg.diagram")),
      playback: box(shown(".playback")),
    };
  });
}

for (const [name, options] of [
  ["a 1280-pixel window", WIDE],
  ["a 360-pixel phone", PHONE],
]) {
  test(`on ${name} a link to the risk lab shows its opening run before any WebAssembly, worded and placed as the live lab`, async ({ browser }) => {
    const before = await beforeTheLab(browser, options, "?lab=risk");
    await expect(before.page.locator(".prerendered svg.diagram:visible")).toHaveCount(1);
    await expect(before.page.locator(".prerendered:visible")).toHaveCount(1);
    // The first lab's run is gone, not merely hidden.
    await expect(before.page.locator(".prerendered .counter")).toHaveCount(0);
    await expect(before.page.getByRole("button", { name: "Play" })).toBeDisabled();
    const staticWords = await riskWords(before.page);
    expect(staticWords.controls).toContain("lab-switch=risk");
    expect(staticWords.results).toContain("Tool calls 1");
    expect(staticWords.readout).toContain("Wall clock 10:31:08.120");
    const staticBoxes = await riskBoxes(before.page);
    const after = await live(browser, options, "?lab=risk");
    expect(staticWords).toEqual(await riskWords(after.page));
    expectNear(staticBoxes, await riskBoxes(after.page), "boxes");
    await closeWatched(before.context);
    await closeWatched(after.context);
  });
}

test("axe finds nothing serious in the risk lab's opening run", async ({ browser }) => {
  for (const options of [WIDE, PHONE]) {
    const { context, page } = await beforeTheLab(browser, { ...options, bypassCSP: true }, "?lab=risk");
    await expect(page.locator(".prerendered svg.diagram:visible")).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);
    await closeWatched(context);
  }
});

test("the risk lab's opening run never shows for its embed, and one that comes after the lab has started stays out", async ({ browser }) => {
  const embed = await beforeTheLab(browser, { viewport: { width: 800, height: 500 } }, "?lab=risk&embed=1");
  await embed.page.waitForTimeout(500);
  await expect(embed.page.locator(".prerendered .app.risk")).toHaveCount(0);
  await closeWatched(embed.context);

  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await watched(context);
  let release;
  const late = new Promise((resolve) => (release = resolve));
  await page.route("**/risk/opening.html", async (route) => {
    await late;
    await route.continue();
  });
  const asked = page.waitForRequest("**/risk/opening.html");
  await page.goto("/?lab=risk");
  await asked;
  await expect(page.locator(".lab-root[data-ready]")).toHaveCount(1);
  release();
  await page.waitForResponse("**/risk/opening.html");
  await page.waitForTimeout(300);
  await expect(page.locator(".prerendered, .lab-loading")).toHaveCount(0);
  await expect(page.locator(".lab-root")).toHaveCount(1);
  await closeWatched(context);
});

/** What the reader reads of the storm lab's first screen. */
function stormWords(page) {
  return shownWords(
    page,
    {
      masthead: ".masthead .tagline",
      presets: ".presets",
      totals: ".totals",
      captions: ".line-chart figcaption",
      legends: ".chart-legend",
    },
    "svg.chart-svg",
    "#lab-switch, #f-workload, #f-seed, #f-clients",
  );
}

/** Where the storm lab's first screen stands. */
function stormBoxes(page) {
  return page.evaluate(() => {
    const shown = (selector) => [...document.querySelectorAll(selector)].filter((e) => e.checkVisibility());
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
    };
    return { presets: box(shown(".presets")[0]), totals: box(shown(".totals")[0]), charts: shown("svg.chart-svg").map(box) };
  });
}

for (const [name, options] of [
  ["a 1280-pixel window", WIDE],
  ["a 360-pixel phone", PHONE],
]) {
  test(`on ${name} a link to the storm lab shows its opening run's totals and charts before any WebAssembly, as the live lab does`, async ({ browser }) => {
    const before = await beforeTheLab(browser, options, "?lab=storms");
    await expect(before.page.locator(".prerendered .app.storms")).toBeVisible();
    await expect(before.page.locator(".prerendered svg.chart-svg:visible")).toHaveCount(2);
    await expect(before.page.getByRole("button", { name: "A spike, no jitter, no budget" })).toBeDisabled();
    const staticWords = await stormWords(before.page);
    expect(staticWords.totals).toContain("Intents 4000");
    expect(staticWords.totals).toContain("the run without retries");
    const staticBoxes = await stormBoxes(before.page);

    const context = await browser.newContext({ ...options, serviceWorkers: "block" });
    const page = await watched(context);
    await page.goto("/?lab=storms");
    await expect(page.locator(".prerendered, .lab-loading")).toHaveCount(0);
    // The run and the run without retries come from the lab's worker.
    await expect(page.locator(".totals .against").first()).toBeVisible();
    await expect(page.locator(".totals .against")).toHaveCount(await before.page.locator(".totals .against:visible").count());
    await expect(page.locator("svg.chart-svg:visible")).toHaveCount(2);
    await page.waitForTimeout(300);
    expect(staticWords).toEqual(await stormWords(page));
    expectNear(staticBoxes, await stormBoxes(page), "boxes");
    await closeWatched(before.context);
    await closeWatched(context);
  });
}

test("axe finds nothing serious in the storm lab's opening run", async ({ browser }) => {
  for (const options of [WIDE, PHONE]) {
    const { context, page } = await beforeTheLab(browser, { ...options, bypassCSP: true }, "?lab=storms");
    await expect(page.locator(".prerendered svg.chart-svg:visible")).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);
    await closeWatched(context);
  }
});

test("another lab's opening run that comes after the loading notice takes its place, in the link's theme, until the lab starts", async ({ browser }) => {
  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await watched(context);
  // The lab's WebAssembly never comes, and its opening run comes late:
  // the host's loading notice is up first.
  await page.route("**/risk_bg.wasm", () => {});
  let release;
  const late = new Promise((resolve) => (release = resolve));
  await page.route("**/risk/opening.html", async (route) => {
    await late;
    await route.continue();
  });
  await page.goto("/?lab=risk&theme=dark");
  await expect(page.locator(".lab-loading")).toBeVisible();
  release();
  const written = page.locator(".prerendered");
  await expect(written.locator(".app.risk svg.diagram").first()).toBeVisible();
  await expect(page.locator(".lab-loading")).toHaveCount(0);
  await expect(written).toHaveAttribute("aria-busy", "true");
  await expect(written.locator("#theme")).toHaveValue("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await context.close();
});

test("the first lab's opening run says the link's theme in its picker while the lab loads", async ({ browser }) => {
  const context = await browser.newContext({ ...WIDE, serviceWorkers: "block" });
  const page = await watched(context);
  await page.route("**/ack_bg.wasm", () => {});
  await page.goto("/?theme=dark");
  await expect(page.locator(".page-opening")).toHaveAttribute("aria-busy", "true");
  await expect(page.locator(".page-opening #theme")).toHaveValue("dark");
  await context.close();
});

test("the storm lab's charts stay on screen from their first paint until the lab is settled, through the lab taking their place", async ({ browser }) => {
  for (const options of [WIDE, PHONE]) {
    const context = await browser.newContext({ ...options, serviceWorkers: "block" });
    const page = await watched(context);
    await page.addInitScript(() => {
      window.chartFrames = [];
      const look = () => {
        const drawn = [...document.querySelectorAll("svg.chart-svg")].filter(
          (svg) => svg.checkVisibility({ visibilityProperty: true }) && svg.querySelector("path"),
        ).length;
        window.chartFrames.push([drawn, !!document.querySelector(".prerendered")]);
        if (window.chartFrames.length < 600) requestAnimationFrame(() => setTimeout(look));
      };
      requestAnimationFrame(() => setTimeout(look));
    });
    await page.goto("/?lab=storms");
    await expect(page.locator(".prerendered, .lab-loading")).toHaveCount(0);
    await expect(page.locator(".totals .against").first()).toBeVisible();
    await page.waitForTimeout(300);
    const frames = await page.evaluate(() => window.chartFrames);
    const first = frames.findIndex(([drawn]) => drawn === 2);
    expect(first, "a frame with both charts").toBeGreaterThanOrEqual(0);
    expect(frames.slice(first).some(([, written]) => !written), "a frame of the live lab").toBe(true);
    expect(frames.slice(first).filter(([drawn]) => drawn !== 2), "frames without both charts after they were drawn").toEqual([]);
    await closeWatched(context);
  }
});
