// MODEL.md v2 in the browser: the "Faults and storage" settings, the new
// experiments, the crash matrix against the command line, and hosting the
// app under a sub-path.
import { execFileSync } from "node:child_process";
import { test, expect, labStarted, open, mirror, figure, endFigure, results } from "./fixtures.mjs";

const cli = new URL("../../target/release/idempotency-lab", import.meta.url).pathname;

function cliRun(args) {
  return JSON.parse(execFileSync(cli, ["run", "--format", "json", ...args], { encoding: "utf8" }));
}

// Worked out by hand from MODEL.md v2's worked examples (see tests/it/scenarios.rs).
const experiments = [
  ["Crash after the effect, in-memory store", "2", "succeeded at 6.05 s"],
  ["Crash after the effect, durable atomic store", "1", "succeeded at 4.05 s"],
  ["Orphaned reservation, no lease", "1", "exhausted at 12.00 s"],
  ["Orphaned reservation with a 5 s lease", "2", "succeeded at 11.05 s"],
  ["A lease shorter than the work", "2", "succeeded at 5.05 s"],
  ["Changed payload, fingerprint checked", "1", "rejected at 4.05 s"],
  ["Changed payload, no fingerprint check", "1", "succeeded at 4.05 s"],
  ["Duplicate in flight: 409 instead of joining", "1", "succeeded at 4.10 s"],
];

for (const [title, counter, outcome] of experiments) {
  test(`experiment: ${title}`, async ({ page }) => {
    await open(page);
    await page.getByRole("button", { name: title }).click();
    const card = page.locator(".experiment-card");
    await expect(card).toContainText("Predict:");
    await expect(figure(page, "Committed counter")).toHaveText("?");
    // The crash matrix would give the answer away; it waits too.
    await expect(page.getByRole("region", { name: "Crash matrix" }).locator("table")).toBeHidden();
    await card.getByRole("button", { name: "Just show me" }).click();
    await expect(figure(page, "Committed counter")).toHaveText(counter);
    await expect(figure(page, "Client outcome")).toHaveText(outcome);
    await expect(card.locator(".explanation")).not.toBeEmpty();
    await expect(page.getByRole("region", { name: "Crash matrix" }).locator("table")).toBeVisible();
  });
}

test("the faults and storage group sets v2 parameters and the diagram shows the crash", async ({ page }) => {
  await open(page, "fault=none");
  const group = page.locator("details.faults");
  await group.locator("summary").click();
  await page.getByLabel("Server crash", { exact: true }).selectOption("after-effect");
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  await page.getByLabel("Deduplication store", { exact: true }).selectOption("durable-separate");
  await expect(await endFigure(page, "Client outcome")).toHaveText("exhausted at 12.00 s");
  await expect(results(page)).toContainText("out of attempts");
  const diagram = page.locator("svg.diagram");
  await expect(diagram.locator("text", { hasText: "crash after the effect, before the result is stored" })).toHaveCount(1);
  await expect(diagram.locator("path.down")).toHaveCount(1);
  await expect(diagram.locator("path.reserved.orphaned")).toHaveCount(1);
  await page.getByLabel("Reservation lease").fill("5");
  await expect(await endFigure(page, "Client outcome")).toHaveText("succeeded at 11.05 s");
  await expect(diagram.locator("text", { hasText: "lease on intent-1 ends: orphaned reservation cleared" })).toHaveCount(1);
  await page.getByLabel("Overall deadline").fill("never");
  await expect(page.locator("#f-deadline-error")).toContainText("Overall deadline");
  await expect(page.locator("#f-deadline-error")).toContainText("off, or 0.001 to 3600 seconds");
  // The link carries every v2 setting.
  await page.getByRole("slider", { name: "Time" }).fill("5000");
  await expect(mirror(page)).toContainText("the key no longer blocks duplicates");
  expect(page.url()).toContain("crash=after-effect");
  expect(page.url()).toContain("store=durable-separate");
  expect(page.url()).toContain("lease=5");
});

test("every crash matrix cell matches the command line and opens its run", async ({ page }) => {
  await open(page, "fault=none&timeout=2.5");
  const matrix = page.getByRole("region", { name: "Crash matrix" });
  await expect(matrix.getByRole("columnheader", { name: "Durable, atomic" })).toBeVisible();
  const crashes = [
    ["none", "No crash"],
    ["before-commit", "Before the commit"],
    ["after-effect", "After the effect"],
    ["after-record", "After storing the result"],
  ];
  const stores = ["in-memory", "durable-separate", "durable-atomic"];
  for (const [crash, heading] of crashes) {
    const row = matrix.getByRole("row", { name: new RegExp(`^${heading}`) });
    const cells = row.getByRole("cell");
    await expect(cells).toHaveCount(3);
    for (const [i, store] of stores.entries()) {
      const doc = cliRun(["--fault", "none", "--timeout-ms", "2500", "--crash", crash, "--store", store]);
      const seconds = (doc.outcome_ms / 1000).toFixed(doc.outcome_ms % 10 === 0 ? 2 : 3);
      const increments = doc.committed === 1 ? "1 increment" : `${doc.committed} increments`;
      await expect(cells.nth(i)).toContainText(`${increments} · ${doc.outcome}`);
      await expect(cells.nth(i)).toContainText(`at ${seconds} s`);
    }
  }
  // A cell opens its run, and the cell for the current run is marked.
  const cell = matrix.getByRole("row", { name: /^After the effect/ }).getByRole("link").nth(0);
  await cell.click();
  await expect(page.getByLabel("Server crash", { exact: true })).toHaveValue("after-effect");
  await expect(page.getByLabel("Deduplication store", { exact: true })).toHaveValue("in-memory");
  await expect(cell).toHaveAttribute("aria-current", "true");
  await expect(await endFigure(page, "Committed counter")).toHaveText(String(cliRun(["--fault", "none", "--timeout-ms", "2500", "--crash", "after-effect"]).committed));
});

test("served under /docs/retries/lab/ every lab loads styled with no missing file", async ({ page }) => {
  const missing = [];
  page.on("response", (r) => {
    if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  await page.goto("/docs/retries/lab/?dedup=off");
  await expect(mirror(page)).toContainText("Model time:");
  await expect(await endFigure(page, "Committed counter")).toHaveText("2");
  expect(missing).toEqual([]);
  // Styled: the stylesheet's theme reached the page (no browser default).
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(font).not.toMatch(/^"?Times/);
  const panel = await page.locator(".panel").first().evaluate((el) => getComputedStyle(el).borderRadius);
  expect(panel).toBe("8px");
  // A copied link stays under the sub-path.
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.locator("#share-text")).toHaveValue(/\/docs\/retries\/lab\/\?/);
  // The other labs too, the storm lab's worker among their files.
  await page.goto("/docs/retries/lab/?lab=risk");
  await expect(mirror(page)).toContainText("Risk-review lab: preset incident, mode naive");
  await expect(page.locator(".risk .check-list li").first()).toBeVisible();
  await page.goto("/docs/retries/lab/?lab=storms");
  await labStarted(page);
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("Intents", { timeout: 20_000 });
  expect(page.workers().map((w) => new URL(w.url()).pathname)).toEqual(["/docs/retries/lab/storms/storm-worker_loader.js"]);
  expect(missing).toEqual([]);
});
