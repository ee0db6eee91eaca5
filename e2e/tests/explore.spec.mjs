// Explore every schedule, in the browser: the panel runs in a Web Worker,
// shows its progress, can be cancelled, leaves the page answering clicks,
// and its simplest breaking schedule opens as the lab's run with the
// failure on screen. Its counts are the command line's (and, for the first
// lab, the hand count of tests/it/explore.rs).
import { execFileSync } from "node:child_process";
import { test, expect, open, mirror } from "./fixtures.mjs";

const cli = new URL("../../target/release/idempotency-lab", import.meta.url).pathname;

function cliExplore(args) {
  return JSON.parse(execFileSync(cli, ["explore", "--format", "json", ...args], { encoding: "utf8" }));
}

function panel(page) {
  return page.getByRole("region", { name: "Explore every schedule" });
}

function row(page, title) {
  return panel(page).locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: title, exact: true }) });
}

/** Holds the explore worker's wasm until `release` is called: the
 * exploration is then surely still under way while the test acts. */
async function holdWorker(page) {
  let release;
  const held = new Promise((r) => (release = r));
  await page.route("**/explore-worker_bg.wasm", async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

test("the first lab: deduplication off, one fault, the counts worked by hand, and the simplest opens as a run", async ({ page }) => {
  await open(page, "lab=ack&dedup=off&fault=none");
  const explore = panel(page);
  await explore.getByLabel("Faults per schedule, at most").selectOption("1");
  await explore.getByRole("button", { name: "Explore" }).click();
  await expect(explore.locator("table caption")).toHaveText("19 schedules explored, 7 distinct", { timeout: 30_000 });
  const once = row(page, "Committed at most once per intent");
  await expect(once.locator("td").nth(0)).toHaveText("3");
  await expect(once.locator("td").nth(2)).toHaveText("holds");
  await expect(row(page, "No increment after the client gave up").locator("td").nth(0)).toHaveText("0");
  await expect(explore.locator(".explore-lesson")).toContainText('The simplest way "Committed at most once per intent" breaks is: response-lost@1');
  // The same as the command line, link and all.
  const doc = cliExplore(["--lab", "ack", "--max-faults", "1", "--dedup", "off", "--fault", "none"]);
  const expected = doc.checks.find((c) => c.name === "committed_at_most_once");
  const link = once.getByRole("link", { name: "response-lost@1" });
  expect(await link.getAttribute("href")).toBe(expected.shortest.link);
  await link.click();
  await expect(page).toHaveURL(/faults=response-lost%401/);
  await expect(mirror(page)).toContainText("Model time:");
  // The opened run shows its failure: two increments, and the invariant broken.
  await expect(page.getByLabel("Aimed faults")).toHaveValue("response-lost@1");
  await expect(row(page, "Committed at most once per intent")).toHaveCount(0);
  await page.getByRole("slider", { name: "Time" }).press("End");
  await expect(page.getByRole("region", { name: "At the playhead" }).locator(".figure", { hasText: "Committed counter" }).locator("dd")).toHaveText("2");
  await panel(page).getByLabel("Faults per schedule, at most").selectOption("1");
  await panel(page).getByRole("button", { name: "Explore" }).click();
  await expect(row(page, "Committed at most once per intent").locator("td").nth(2)).toHaveText("broken", { timeout: 30_000 });
});

test("the first lab: exploring shows progress, leaves the page answering clicks, and can be cancelled", async ({ page }) => {
  const release = await holdWorker(page);
  await open(page, "lab=ack");
  const explore = panel(page);
  await explore.getByRole("button", { name: "Explore" }).click();
  const progress = explore.getByRole("progressbar", { name: "Exploring" });
  await expect(progress).toBeVisible();
  // The page still reacts while the worker is being fetched (under load,
  // it is the long exploration's test below; how fast is a figure `make
  // bench` prints, not a pass or fail here).
  const advanced = page.locator("details", { hasText: "Faults and storage" }).first();
  await advanced.locator("summary").first().click();
  await expect(page.getByLabel("Aimed faults")).toBeVisible();
  await expect(progress).toBeVisible();
  await explore.getByRole("button", { name: "Cancel" }).click();
  await expect(progress).toBeHidden();
  await expect(explore).toContainText("Exploring was cancelled");
  await expect(explore.locator("table")).toHaveCount(0);
  release();
  // A fresh worker explores the whole space afterwards.
  await explore.getByRole("button", { name: "Explore" }).click();
  await expect(explore.locator(".explore-lesson")).toBeVisible({ timeout: 30_000 });
  const doc = cliExplore(["--lab", "ack", "--max-faults", "2"]);
  await expect(explore.locator("table caption")).toHaveText(`${doc.explored} schedules explored, ${doc.distinct} distinct`);
});

test("the risk lab: a pattern off, the simplest schedule that breaks its check opens as a run that fails it", async ({ page }) => {
  await page.goto("/risk/?preset=lost-create-response&mode=patterns&find=off");
  await expect(mirror(page)).toContainText("Risk-review lab: preset");
  const explore = panel(page);
  await explore.getByLabel("Faults per schedule, at most").selectOption("1");
  await explore.getByRole("button", { name: "Explore" }).click();
  const doc = cliExplore(["--lab", "risk", "--max-faults", "1", "--preset", "lost-create-response", "--mode", "patterns", "--find-by-key", "off"]);
  await expect(explore.locator("table caption")).toHaveText(`${doc.explored} schedules explored, ${doc.distinct} distinct`, { timeout: 30_000 });
  const expected = doc.checks.find((c) => c.name === "lost_response_converges");
  const converges = row(page, "A lost response converges");
  await expect(converges.locator("td").nth(0)).toHaveText(String(expected.broken));
  const link = converges.getByRole("link");
  expect(await link.getAttribute("href")).toBe(expected.shortest.link);
  await link.click();
  await expect(page).toHaveURL(/fault=create-response-lost%401/);
  await expect(mirror(page)).toContainText("Risk-review lab: preset");
  await page.getByRole("slider", { name: "Time" }).press("End");
  const verdict = page.getByRole("region", { name: "Acceptance checks" }).getByRole("listitem").filter({ hasText: "lost_response_converges" }).locator(".verdict-word");
  await expect(verdict).toHaveText("fails");
});

test("the risk lab: exploring can be cancelled; the incident with every pattern on survives every two-fault schedule", async ({ page }) => {
  const release = await holdWorker(page);
  await page.goto("/risk/?preset=incident&mode=patterns");
  await expect(mirror(page)).toContainText("Risk-review lab: preset");
  const explore = panel(page);
  await explore.getByLabel("Faults per schedule, at most").selectOption("3");
  await explore.getByRole("button", { name: "Explore" }).click();
  const progress = explore.getByRole("progressbar", { name: "Exploring" });
  await expect(progress).toBeVisible();
  await explore.getByRole("button", { name: "Cancel" }).click();
  await expect(progress).toBeHidden();
  await expect(explore.locator("table")).toHaveCount(0);
  release();
  // A fresh worker explores the whole two-fault space.
  await explore.getByLabel("Faults per schedule, at most").selectOption("2");
  await explore.getByRole("button", { name: "Explore" }).click();
  await expect(explore.locator(".explore-lesson")).toHaveText(/^No schedule of at most 2 faults breaks an invariant \(1312 explored, \d+ distinct\)\.$/, { timeout: 30_000 });
  await expect(explore.locator("tbody tr.broken")).toHaveCount(0);
  // Explored again with the same settings, the worker already up: the
  // same answer.
  await explore.getByRole("button", { name: "Explore" }).click();
  await expect(explore.locator(".explore-lesson")).toContainText("(1312 explored", { timeout: 30_000 });
});

test("the risk lab: a long exploration counts its schedules as it goes, and Cancel stops it midway", async ({ page }) => {
  // The overload burst's 200 calls per run, at most three faults of the
  // alphabet's 37: 2 x (1 + 37 + 618 + 6212) = 13 736 schedules (see the
  // unit test of `schedules`), minutes of work for the worker.
  await page.goto("/risk/?preset=overload&mode=patterns");
  await expect(mirror(page)).toContainText("Risk-review lab: preset");
  const explore = panel(page);
  await explore.getByLabel("Faults per schedule, at most").selectOption("3");
  await explore.getByRole("button", { name: "Explore" }).click();
  const count = explore.locator(".progress-row span");
  // The count read once, in the poll that matched it: some explored, not all.
  let done = 0;
  await expect
    .poll(async () => {
      const found = ((await count.textContent({ timeout: 1_000 }).catch(() => "")) ?? "").match(/^(\d+) of 13736 schedules explored$/);
      done = found ? Number(found[1]) : 0;
      return done > 0 && done < 13736;
    }, { timeout: 30_000 })
    .toBe(true);
  // While the worker explores, the page answers: a step moves the
  // playhead, and the exploration goes on meanwhile.
  const before = await mirror(page).textContent();
  await page.getByRole("button", { name: "Next event" }).click();
  await expect(mirror(page)).not.toHaveText(before);
  await expect(explore.getByRole("progressbar", { name: "Exploring" })).toBeVisible();
  await expect
    .poll(async () => Number(((await count.textContent()) ?? "").split(" ")[0]), { timeout: 30_000 })
    .toBeGreaterThan(done);
  await explore.getByRole("button", { name: "Cancel" }).click();
  await expect(explore.getByRole("progressbar", { name: "Exploring" })).toBeHidden();
  await expect(explore.locator("table")).toHaveCount(0);
  await expect(explore).toContainText("Exploring was cancelled");
});
