// Comparing two risk-review runs on the risk page. Expected figures are
// RISK-MODEL.md's incident: with a naive tool server the retry's create at
// 10:31:12.531 (4.411 s into the run) makes a second review, RV-2, for the
// same order; with the idempotent create the Risk API answers it with the
// first review instead, so run B has one review and the runs part there.
import { readFileSync } from "node:fs";
import { test, expect, seriousViolations, expectModelTime } from "./fixtures.mjs";

const risk = (page) => page.locator(".lab-root");

function mirror(page) {
  return page.getByRole("region", { name: "State as text" }).locator("pre");
}

function differences(page) {
  return page.getByRole("region", { name: "Differences" });
}

function runB(page) {
  return page.getByRole("region", { name: "Run B", exact: true });
}

/** The text of one line of the differences, found by its exact label. */
function diffLine(page, label) {
  return differences(page)
    .locator(".diff-line")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");
}

/** The model time the mirror gives, as text ("4.20"). */
async function modelTime(page) {
  const text = await mirror(page).textContent();
  return text.match(/Model time: (\d+\.\d{2,3}) s/)[1];
}

async function openRisk(page, query = "") {
  await page.goto(`/?lab=risk${query ? `&${query}` : ""}`);
  // An embed keeps the state as text one disclosure away: it is ready
  // once its diagram is drawn.
  if (/(^|&)embed=1/.test(query)) await expect(page.locator(".risk .timeline svg.diagram").first()).toBeVisible();
  else await expect(mirror(page)).toContainText("Risk-review lab: preset");
}

/** Every path the page asks for from now on (the browser's own, lazy
 * request for the tab's icon aside). */
function requestsFrom(page) {
  const seen = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path !== "/favicon.svg") seen.push(path);
  });
  return seen;
}

const duplicateIds = (page) =>
  page.evaluate(() => {
    const ids = Array.from(document.querySelectorAll("[id]"), (el) => el.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });

test("compare the naive incident with the idempotent create: 2 reviews against 1, parting at 4.411 s", async ({ page }) => {
  await openRisk(page);
  const later = requestsFrom(page);
  await page.getByRole("button", { name: "Compare with…" }).click();
  await expect(differences(page)).toBeVisible();
  expect(later, "run B is in the lab's one bundle: nothing more to download").toEqual([]);
  await expect(risk(page), "one lab in the page").toHaveCount(1);
  expect(await duplicateIds(page)).toEqual([]);
  // The focus goes to run B's setting, which offers the idempotent create
  // first.
  const setting = runB(page).getByLabel("Setting to change in run B");
  await expect(setting).toBeFocused();
  await expect(setting).toHaveValue("idempotent_create");
  await runB(page).getByLabel("Idempotent create").selectOption({ label: "On" });
  await expect(runB(page).locator(".compare-summary")).toHaveText(
    "Run B is run A with Idempotent create: As the mode says → On.",
  );
  await expect(diffLine(page, "Reviews at the Risk API")).toHaveText("A: 2 reviews, B: 1 review");
  await expect(diffLine(page, "First divergence")).toContainText("at 4.411 s");
  await expect(diffLine(page, "Only in A's Risk API")).toHaveText(
    "RV-2 for O20260728001 (request_key rk-0001) at 10:31:12.531 (4.411 s)",
  );
  await expect(diffLine(page, "Only in B's Risk API")).toHaveText("none");
  await expect(diffLine(page, "Checks")).toContainText("One review per business key: A fails, B holds");
  await expect(page).toHaveURL(/lab=risk&.*b\.idem=on/);

  // Two diagrams on one clock: each marks the divergence at the same x,
  // and the one playhead is at the same x in both.
  const diagrams = risk(page).locator("svg.diagram");
  await expect(diagrams).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "Run A: timeline" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Run B: timeline" })).toBeVisible();
  const marks = await diagrams.locator("line.divergence").evaluateAll((ls) => ls.map((l) => l.getAttribute("x1")));
  expect(marks.length).toBe(2);
  expect(marks[0]).toBe(marks[1]);
  for (let i = 0; i < 6; i++) await page.getByRole("button", { name: "Next event" }).click();
  const xs = await diagrams.locator("line.playhead").evaluateAll((ls) => ls.map((l) => l.getAttribute("x1")));
  expect(xs[0]).not.toBe("0");
  expect(xs[0]).toBe(xs[1]);

  // The mirror says both runs and the difference in words.
  await expect(mirror(page)).toContainText("Two runs on one clock. Run B is run A with Idempotent create: As the mode says → On.");
  await expect(mirror(page)).toContainText("Reviews at the Risk API: A: 2 reviews, B: 1 review");

  // Closed, run A is alone again, and the address forgets run B.
  await page.getByRole("button", { name: "Close comparison" }).click();
  await expect(differences(page)).toHaveCount(0);
  await expect(risk(page).locator("svg.diagram")).toHaveCount(1);
  await expect(page).not.toHaveURL(/b\.idem/);
});

test("fork at 4.2 s with the idempotent create: the runs agree before the fork, and a link reopens both", async ({ page, context }) => {
  await openRisk(page, "at=4.2");
  await page.getByRole("button", { name: "Fork here" }).click();
  await runB(page).getByLabel("Idempotent create").selectOption({ label: "On" });
  await expect(diffLine(page, "Fork")).toHaveText("at 4.20 s: the runs agree on every event before the fork");
  await expect(diffLine(page, "Reviews at the Risk API")).toHaveText("A: 2 reviews, B: 1 review");
  await expect(page).toHaveURL(/fork=4\.2/);
  await expect(page).toHaveURL(/b\.idem=on/);
  const link = page.url();

  // The link reopens both runs at the same playhead.
  const other = await context.newPage();
  await other.goto(link);
  await expect(diffLine(other, "Fork")).toHaveText("at 4.20 s: the runs agree on every event before the fork");
  await expect(diffLine(other, "Reviews at the Risk API")).toHaveText("A: 2 reviews, B: 1 review");
  await expect(risk(other).locator("svg.diagram")).toHaveCount(2);
  await expectModelTime(other, "4.20");
  await expect(risk(other)).toHaveCount(1);

  // A setting that acts from the start is caught by the fork check.
  await runB(other).getByLabel("Setting to change in run B").selectOption({ label: "Mode" });
  await runB(other).getByLabel("Mode", { exact: true }).selectOption({ label: "Patterns" });
  await expect(diffLine(other, "Fork")).toContainText("but the runs already differ at");
});

test("a broken or hostile second run in a risk link gets a notice and run A alone", async ({ page }) => {
  await openRisk(page, "b.idem=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
  const notice = page.locator(".notice-text").first();
  await expect(notice).toContainText("b.idem");
  await expect(notice).toContainText("The second run was not opened; run A is shown alone.");
  await expect(differences(page)).toHaveCount(0);
  await expect(risk(page).locator("svg.diagram")).toHaveCount(1);
  await expect(page.locator("script", { hasText: "alert" })).toHaveCount(0);

  await openRisk(page, "b.dedup=off");
  await expect(page.locator(".notice-text").first()).toContainText("b.dedup: not a setting of run B");
  await expect(page.locator(".notice-text").first()).toContainText("such as b.mode");
});

test("a risk comparison exports both runs, and importing it opens both again", async ({ page }) => {
  await openRisk(page, "b.idem=on&fork=4");
  await expect(differences(page)).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export run (JSON)" }).click();
  const file = await (await download).path();
  const json = JSON.parse(readFileSync(file, "utf8"));
  expect(json.a.reviews.length).toBe(2);
  expect(json.b.reviews.length).toBe(1);
  expect(json.b.settings.idempotent_create).toBe("on");
  expect(json.fork_ms).toBe(4000);
  expect(json.differences.first_divergence.t_ms).toBe(4411);
  expect(json.differences.only_a[0].review_ref).toBe("RV-2");

  await openRisk(page);
  await expect(differences(page)).toHaveCount(0);
  await page.locator("#import-file").setInputFiles(file);
  await expect(diffLine(page, "Reviews at the Risk API")).toHaveText("A: 2 reviews, B: 1 review");
  await expect(diffLine(page, "Fork")).toHaveText("at 4.00 s: the runs agree on every event before the fork");
  await expect(page).toHaveURL(/b\.idem=on/);
  await expect(page.locator(".notice-text")).toHaveText([/^Imported settings from /]);
});

test("an embed shows both runs and the differences, without run B's settings", async ({ page }) => {
  await openRisk(page, "embed=1&b.idem=on");
  // The differences are one disclosure away, with where it broke.
  await page.getByText("Where it broke, the checks and the state as text").click();
  await expect(differences(page)).toBeVisible();
  await expect(diffLine(page, "Reviews at the Risk API")).toHaveText("A: 2 reviews, B: 1 review");
  await expect(risk(page).locator("svg.diagram")).toHaveCount(2);
  await expect(runB(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Fork here" })).toHaveCount(0);
});

test("a preset's question closes the comparison, whose differences would answer it", async ({ page }) => {
  await openRisk(page, "b.idem=on");
  await expect(differences(page)).toBeVisible();
  await page.getByRole("button", { name: "Same order, new request_key (second click)" }).click();
  await expect(page.locator(".experiment-card")).toContainText("Predict:");
  await expect(differences(page)).toHaveCount(0);
  await expect(risk(page).locator("svg.diagram")).toHaveCount(1);
  await expect(page).not.toHaveURL(/b\.idem/);
});

test.describe("accessibility", () => {
  // Injecting axe needs an inline script, so only this test bypasses the CSP.
  test.use({ bypassCSP: true });
  test("axe finds no serious or critical violations with two risk runs open", async ({ page }) => {
    await openRisk(page, "b.idem=on&fork=4&at=4.411");
    await expect(differences(page)).toBeVisible();
    await expect(risk(page).locator("svg.diagram")).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
