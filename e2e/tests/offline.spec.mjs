// One visit, then no network: every lab, and a link with settings, still
// open, from the copy the service worker stored (sw.js, written by
// scripts/offline.mjs with the build's files).
import { readFileSync, writeFileSync } from "node:fs";
import { test, expect, labStarted, mirror } from "./fixtures.mjs";

test.use({ serviceWorkers: "allow" });
// The second test rewrites the build's sw.js for a moment: one at a time.
test.describe.configure({ mode: "serial" });

// The served build, as serve.mjs is given it (relative to e2e/).
const root = (process.env.E2E_ROOT ?? "../dist").replace(/\/$/, "");
const swFile = new URL(`${root}/sw.js`, new URL("../", import.meta.url));

test("after one visit every lab and link works offline", async ({ page, context }) => {
  await page.goto("/");
  await expect(mirror(page)).toContainText("Model time:");
  // The copy is stored once the worker is active (it installs when the
  // first lab is on screen and the page is idle).
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === "activated", null, { timeout: 30_000 });
  await context.setOffline(true);
  await page.reload();
  await expect(mirror(page)).toContainText("Model time:");
  // A link with settings opens its run.
  await page.goto("/?lab=ack&dedup=off");
  await expect(mirror(page)).toContainText("Model time:");
  await page.getByRole("slider", { name: "Time" }).press("End");
  await expect(page.getByRole("region", { name: "At the playhead" }).locator(".figure", { hasText: "Committed counter" }).locator("dd")).toHaveText("2");
  await page.goto("/?lab=risk");
  await expect(mirror(page)).toContainText("Risk-review lab: preset incident");
  // The storm lab's own worker, and the explorer's, come from the copy too.
  await page.goto("/?lab=storms");
  await labStarted(page);
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("Intents", { timeout: 20_000 });
  await page.goto("/?lab=ack&dedup=off&fault=none");
  const explore = page.getByRole("region", { name: "Explore every schedule" });
  await explore.getByLabel("Faults per schedule, at most").selectOption("1");
  await explore.getByRole("button", { name: "Explore" }).click();
  await expect(explore.locator("table caption")).toHaveText("19 schedules explored, 7 distinct", { timeout: 30_000 });
});

test("the lab is installable: its manifest names it, its start and its icon", async ({ page }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  const manifest = await (await page.request.get(href)).json();
  expect(manifest.name).toBe("Idempotency Lab");
  expect(manifest.display).toBe("standalone");
  expect((await page.request.get(manifest.icons[0].src)).ok()).toBe(true);
  expect((await page.request.get(manifest.start_url)).ok()).toBe(true);
});

test("a new build is noticed, and Reload takes it", async ({ page, context }) => {
  await page.goto("/");
  await expect(mirror(page)).toContainText("Model time:");
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === "activated", null, { timeout: 30_000 });
  // The server now has another build's worker (its fingerprint differs).
  const built = readFileSync(swFile, "utf8");
  try {
    writeFileSync(swFile, built.replace(/const VERSION = "[^"]*";/, 'const VERSION = "another-build";'));
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    const notice = page.getByRole("status").filter({ hasText: "A new version of the lab is ready." });
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await notice.getByRole("button", { name: "Reload" }).click();
    await page.waitForFunction(() => !document.querySelector(".update-notice"), null, { timeout: 30_000 });
    await expect(mirror(page)).toContainText("Model time:");
    // The new build's copy is the one kept; the old one is gone.
    await expect.poll(async () => (await page.evaluate(() => caches.keys())).map((k) => k.split(" ").pop())).toEqual(["another-build"]);
  } finally {
    writeFileSync(swFile, built);
  }
});
