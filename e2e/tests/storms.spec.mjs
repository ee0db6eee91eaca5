// The storm lab's page: its own bundle, with the engine in a Web Worker.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test, expect, labStarted, seriousViolations } from "./fixtures.mjs";

const cli = new URL("../../target/release/idempotency-lab", import.meta.url).pathname;
const native = (args) => JSON.parse(execFileSync(cli, ["storms", "--format", "json", ...args], { encoding: "utf8" }));
/** A figure of the Totals region, by its label. */
const total = (page, name) =>
  page.getByRole("region", { name: "Totals" }).locator(".figure").filter({ has: page.locator("dt", { hasText: new RegExp(`^${name}$`) }) }).locator("dd:not(.against)");

async function openStorms(page, query = "") {
  await page.goto(`/?lab=storms${query ? `&${query}` : ""}`);
  await labStarted(page);
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("Intents", { timeout: 20_000 });
}

test("the Lab switcher shows the storm lab in place and its worker fills the totals and the charts", async ({ page }) => {
  await page.goto("/?dedup=off");
  await page.getByLabel("Lab", { exact: true }).selectOption("storms");
  await expect(page).toHaveURL(/\/\?lab=storms/);
  const totals = page.getByRole("region", { name: "Totals" });
  await expect(totals).toContainText("Intents", { timeout: 20_000 });
  await expect(totals).toContainText("Little's law");
  // The worker's run is the command line's, figure by figure.
  const t = native([]).runs[0].totals;
  for (const [name, value] of [
    ["Acknowledged", t.acknowledged],
    ["Exhausted", t.exhausted],
    ["Operations executed", t.operations],
    ["Wasted operations", t.wasted_operations],
    ["Duplicate effects", t.duplicate_effects],
    ["Retries", t.retries],
    ["429s", t.rejected_429],
    ["Timeouts", t.timeouts],
  ]) {
    await expect(total(page, name), name).toHaveText(String(value));
  }
  await expect(page.getByRole("img", { name: /^Load over time/ })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Queue and work over time/ })).toBeVisible();
  // And back.
  await page.getByLabel("Lab", { exact: true }).selectOption("ack");
  await expect(page.getByRole("region", { name: "State as text" })).toContainText("Model time:");
});

test("the same settings and seed give the command line's JSON in the browser", async ({ page }) => {
  await openStorms(page, "clients=800&seed=17&algo=full");
  await expect(page.getByLabel("Seed")).toHaveValue("17");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export run (JSON)" }).click(),
  ]);
  const exported = await (await download.createReadStream()).toArray();
  const browser = Buffer.concat(exported).toString("utf8");
  const cliJson = execFileSync(cli, ["storms", "--format", "json", "--clients", "800", "--seed", "17", "--algorithm", "full"], { encoding: "utf8" });
  expect(JSON.parse(browser)).toEqual(JSON.parse(cliJson));
  expect(browser).toBe(cliJson);
});

test("the AWS preset draws both of the blog's charts", async ({ page }) => {
  await openStorms(page);
  await page.getByRole("button", { name: "The AWS backoff experiment" }).click();
  await expect(page.getByLabel("Workload")).toHaveValue("occ");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByRole("progressbar", { name: "Progress" })).toBeVisible();
  const work = page.getByRole("img", { name: /^Work: write calls against clients/ });
  const time = page.getByRole("img", { name: /^Completion time: time \(s\) against clients/ });
  await expect(work).toBeVisible({ timeout: 120_000 });
  await expect(time).toBeVisible();
  // One line per algorithm with the sweep's means (the command line's, for
  // the same seed and runs), and the reference means (the Python port's)
  // beside them; each line is described by its first, last and peak value.
  const sweep = JSON.parse(
    execFileSync(cli, ["storms", "--workload", "occ", "--clients", "100", "--sweep", "aws", "--format", "json"], {
      encoding: "utf8",
    }),
  );
  const reference = JSON.parse(readFileSync(new URL("../../tests/data/aws-reference.json", import.meta.url), "utf8"));
  const round = (v) => (Math.abs(v) >= 10 ? String(Math.round(v)) : (Math.round(v * 10) / 10).toFixed(1));
  const described = (cells, name, label, value) => {
    const ys = cells.filter((c) => c.algorithm === name).sort((a, b) => a.clients - b.clients).map(value);
    return `${label} from ${round(ys[0])} to ${round(ys.at(-1))} (peak ${round(Math.max(...ys))})`;
  };
  const calls = (c) => c.mean_calls;
  const seconds = (c) => c.mean_time_ms / 1000;
  const [workLabel, timeLabel] = [await work.getAttribute("aria-label"), await time.getAttribute("aria-label")];
  for (const name of ["none", "exponential", "full", "equal", "decorrelated"]) {
    expect(workLabel).toContain(described(sweep.cells, name, name, calls));
    expect(workLabel).toContain(described(reference.cells, name, `${name} (reference, Python port)`, calls));
    expect(timeLabel).toContain(described(sweep.cells, name, name, seconds));
    expect(timeLabel).toContain(described(reference.cells, name, `${name} (reference, Python port)`, seconds));
  }
});

test("a sweep can be cancelled, and the page answers a click while it runs", async ({ page }) => {
  // The most clients a link allows: the sweep takes several seconds even on a
  // fast machine, so it cannot finish before the Cancel below is pressed.
  await openStorms(page, "clients=100000");
  await page.getByRole("button", { name: "Run sweep" }).click();
  const progress = page.getByRole("progressbar", { name: "Progress" });
  await expect(progress).toBeVisible();
  // While the worker sweeps, the page still reacts: a click opens a section
  // and the sweep is still under way afterwards. (How long frames take is a
  // figure `make bench` prints, not a pass or fail here.)
  await page.locator("details.advanced summary", { hasText: "Advanced" }).click();
  await expect(page.getByLabel("Chart bucket")).toBeVisible();
  await expect(progress).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(progress).toBeHidden();
  await expect(page.getByRole("region", { name: "Sweep heat map" }).locator("table")).toHaveCount(0);
});

test("the heat map opens a cell's run", async ({ page }) => {
  await openStorms(page, "clients=300");
  const heat = page.getByRole("region", { name: "Sweep heat map" });
  await heat.getByLabel("Sweep").selectOption({ label: "Spike size × retry budget" });
  await page.getByRole("button", { name: "Run sweep" }).click();
  const cell = heat.getByRole("button", { name: /^Spike multiplier 4, Retry budget token-bucket: / });
  await expect(cell).toBeVisible({ timeout: 60_000 });
  await cell.click();
  await expect(page.getByLabel("Spike multiplier", { exact: true })).toHaveValue("4");
  await page.locator("details", { hasText: "Keys and retry budgets" }).locator("summary").click();
  await expect(page.getByLabel("Retry budget", { exact: true })).toHaveValue("token-bucket");
  await expect(page).toHaveURL(/spike=4/);
  await expect(page).toHaveURL(/budget=token-bucket/);
});

test("a preset hides the answer until the reader predicts", async ({ page }) => {
  await openStorms(page);
  await page.getByRole("button", { name: "The same spike with a token bucket" }).click();
  const card = page.locator(".experiment-card");
  await expect(card).toContainText("Predict: After the spike ends");
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("?");
  await card.getByRole("button", { name: "yes" }).click();
  await expect(card.locator(".answer")).toHaveText("Right: yes.", { timeout: 20_000 });
  await expect(card.locator(".explanation")).toContainText("retries were sent");
});

test("run B beside run A: the same seed, one setting changed, and where they part", async ({ page }) => {
  await openStorms(page, "seed=3");
  const totals = page.getByRole("region", { name: "Totals" });
  const retriesA = await total(page, "Retries").textContent();
  expect(Number(retriesA)).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Compare with…" }).click();
  const panel = page.getByRole("region", { name: "Run B" });
  const diff = page.getByRole("region", { name: "Differences" });
  // Run B starts as run A: the same events in the same order.
  await expect(diff).toContainText("Run B changesthe same settings");
  await expect(diff).toContainText("none: the runs handle the same events in the same order");
  await expect(diff).toContainText(`A: ${retriesA}, B: ${retriesA} (the same)`);
  // Allowed one attempt, run B gives up where run A first retries.
  await panel.getByLabel("Setting to change in run B").selectOption({ label: "Maximum total attempts" });
  await panel.getByLabel("Maximum total attempts").fill("1");
  await expect(diff).toContainText("Maximum total attempts: 4 → 1");
  const first = diff.locator(".diff-line", { hasText: "First divergence" });
  await expect(first).toContainText(/at \d+\.\d{3} ms \(event \d+; the runs agree on every event before it\)\. A: client \d+ sends attempt 2\./);
  await expect(diff.locator(".diff-line", { hasText: "Retries" })).toContainText(`A: ${retriesA}, B: 0`);
  // Each run's charts, titled by run; run B's retry line stays at 0.
  const charts = page.getByRole("region", { name: "Charts" });
  await expect(charts.getByRole("img", { name: /^Run A: Load over time/ })).toBeVisible();
  await expect(charts.getByRole("img", { name: /^Run B: Load over time/ })).toHaveAccessibleName(/Retries from 0(\.0)? to 0(\.0)? \(peak 0(\.0)?\)/);
  await expect(charts.getByRole("img", { name: /^Run B: Queue and work over time/ })).toBeVisible();
  // Run A is what it was.
  await expect(total(page, "Retries")).toHaveText(retriesA);
  // A value out of range is refused by name and leaves run B as it was.
  await panel.getByLabel("Maximum total attempts").fill("0");
  await expect(panel.locator(".field-error")).toContainText("Maximum total attempts: 0 is out of range");
  await expect(diff).toContainText("Maximum total attempts: 4 → 1");
  // The export holds both runs, run A as the command line prints it, and
  // the differences.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export run (JSON)" }).click(),
  ]);
  const both = JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8"));
  expect(both.a).toEqual(native(["--seed", "3"]));
  expect(both.b.settings.max_attempts).toBe(1);
  expect(both.differences.map((d) => d.text)).toContain("Maximum total attempts: 4 → 1");
  // The link carries run B, and reopens both runs.
  await expect(page).toHaveURL(/seed=3&b\.attempts=1/);
  const other = await page.context().newPage();
  await other.goto(page.url());
  const reopened = other.getByRole("region", { name: "Differences" });
  await expect(reopened).toContainText("Maximum total attempts: 4 → 1", { timeout: 20_000 });
  await expect(reopened.locator(".diff-line", { hasText: "Retries" })).toContainText(`A: ${retriesA}, B: 0`);
  await other.close();
  await page.getByRole("button", { name: "Close comparison" }).click();
  await expect(diff).toHaveCount(0);
  await expect(page).not.toHaveURL(/b\.attempts/);
  await expect(total(page, "Retries")).toHaveText(retriesA);
  await expect(charts.getByRole("img", { name: /^Run B:/ })).toHaveCount(0);
  await expect(charts.getByRole("img", { name: /^Load over time/ })).toBeVisible();
  // Closed, the export is run A's alone again.
  const [single] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export run (JSON)" }).click(),
  ]);
  const alone = execFileSync(cli, ["storms", "--format", "json", "--seed", "3"], { encoding: "utf8" });
  expect(Buffer.concat(await (await single.createReadStream()).toArray()).toString("utf8")).toBe(alone);
});

test("run B in the contention workload offers its settings and compares its counters", async ({ page }) => {
  // (The link names the workload before the client count it allows.)
  await page.goto("/storms/?workload=occ&clients=20");
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("Write calls", { timeout: 20_000 });
  await page.getByRole("button", { name: "Compare with…" }).click();
  const panel = page.getByRole("region", { name: "Run B" });
  const setting = panel.getByLabel("Setting to change in run B");
  // The setting offered is one of this workload's, and its control is the one shown.
  const offered = await setting.locator("option:checked").textContent();
  await expect(panel.getByLabel(offered, { exact: true })).toBeVisible();
  await expect(setting.locator("option", { hasText: "Maximum total attempts" })).toHaveCount(0);
  await setting.selectOption({ label: "Clients" });
  await panel.getByLabel("Clients", { exact: true }).fill("21");
  const diff = page.getByRole("region", { name: "Differences" });
  await expect(diff).toContainText("Clients: 20 → 21");
  await expect(diff.locator(".diff-line", { hasText: "Write calls" })).toContainText(/A: \d+, B: \d+/);
  await expect(diff.locator(".diff-line", { hasText: "First divergence" })).toContainText(/at \d+\.\d{3} ms/);
});

test("a link with a broken run B gets a notice and shows run A alone", async ({ page }) => {
  await openStorms(page, "seed=3&b.attempts=0");
  await expect(page.getByRole("status").first()).toContainText(
    "b.attempts: 0 is out of range; allowed: a whole number from 1 to 10. The second run was not opened; run A is shown alone.",
  );
  await expect(page.getByRole("region", { name: "Differences" })).toHaveCount(0);
  await expect(page.getByLabel("Seed")).toHaveValue("3");
  await openStorms(page, "b.algo=%3Cscript%3E");
  await expect(page.getByRole("status").first()).toContainText("b.algo:");
  await expect(page.getByRole("region", { name: "Differences" })).toHaveCount(0);
  await openStorms(page, "clients=20&b.workload=occ");
  await expect(page.getByRole("status").first()).toContainText("b.workload: run B uses run A's workload.");
  await expect(page.getByRole("region", { name: "Differences" })).toHaveCount(0);
});

test("each workload keeps its own values: switching never shows an error for the other's", async ({ page }) => {
  await openStorms(page);
  const clients = page.getByLabel("Clients", { exact: true });
  const workload = page.getByLabel("Workload");
  await clients.fill("3000");
  await clients.press("Enter");
  await workload.selectOption("occ");
  // The AWS experiment's own values, not the overload's 3 000 clients.
  await expect(clients).toHaveValue("100");
  await expect(page.getByLabel("Backoff algorithm", { exact: true })).toHaveValue("full");
  await clients.fill("50");
  await clients.press("Enter");
  await workload.selectOption("overload");
  await expect(clients).toHaveValue("3000");
  await workload.selectOption("occ");
  await expect(clients).toHaveValue("50");
  await expect(page).toHaveURL(/clients=50/);
  await expect(page.locator(".field-error")).toHaveCount(0);
  await expect(page.locator(".notices")).toHaveText("");
});

test("bad link values get a notice and fall back", async ({ page }) => {
  await page.goto("/storms/?clients=0&algo=linear&seed=12");
  await expect(page.getByRole("status").first()).toContainText("clients: 0 is out of range");
  await expect(page.getByRole("status").first()).toContainText("algo: \"linear\" is not a known option");
  await expect(page.getByLabel("Seed")).toHaveValue("12");
  await expect(page.getByLabel("Clients")).toHaveValue("4000");
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });
  for (const scheme of ["light", "dark"]) {
    test(`axe finds no serious or critical violations on the storm page, ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openStorms(page, "clients=300");
      await page.getByRole("button", { name: "Run sweep" }).click();
      await expect(page.getByRole("region", { name: "Sweep heat map" }).locator("table")).toBeVisible({ timeout: 60_000 });
      await page.getByRole("button", { name: "The same spike with full jitter" }).click();
      expect(await seriousViolations(page)).toEqual([]);
      // And with run B open beside run A.
      await page.getByRole("button", { name: "Compare with…" }).click();
      // (The preset asks for a prediction first, so the differences wait.)
      await expect(page.getByRole("region", { name: "Differences" })).toContainText("once you make your prediction");
      await expect(page.getByRole("region", { name: "Run B" }).getByLabel("Maximum total attempts")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
