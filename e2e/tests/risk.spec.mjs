// The risk-review lab's page, through accessible names, compared with the
// command line's release build for the same settings.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test, expect, seriousViolations } from "./fixtures.mjs";

const cli = new URL("../../target/release/idempotency-lab", import.meta.url).pathname;

const PRESETS = [
  "incident",
  "same-request-key",
  "same-business-key",
  "lost-create-response",
  "not-found-resend",
  "forged-order",
  "overload",
  "worker-crash",
  "probe-races-create",
  "check-then-insert-race",
  "pause-past-lease",
  "new-generation",
  "replica-pause",
  "wrong-audience",
  "user-in-arguments",
  "extra-argument",
  "long-reason",
  "wide-fleet",
  "slow-fleet",
  "slowing-downstream",
  "random-faults",
];

/** The command line's run for the same flags, as JSON. */
function native(args) {
  // The burst's run is a few megabytes of JSON.
  return JSON.parse(execFileSync(cli, ["risk", "--format", "json", ...args], { encoding: "utf8", maxBuffer: 256 << 20 }));
}

/** A link's `at` for a model time in milliseconds. */
const seconds = (ms) => (ms / 1000).toFixed(3);

function mirror(page) {
  return page.getByRole("region", { name: "State as text" }).locator("pre");
}

async function openRisk(page, query = "") {
  await page.goto(`/risk/${query ? `?${query}` : ""}`);
  // An embed keeps the state as text one disclosure away: it is ready
  // once its diagram is drawn.
  if (/(^|&)embed=1/.test(query)) await expect(page.locator(".risk .timeline svg.diagram").first()).toBeVisible();
  else await expect(mirror(page)).toContainText("Risk-review lab: preset");
}

function checks(page) {
  return page.getByRole("region", { name: "Acceptance checks" });
}

/** The verdict word a check shows. */
function verdictOf(page, name) {
  return checks(page).getByRole("listitem").filter({ hasText: name }).locator(".verdict-word");
}

const WORD = { true: "holds", false: "fails", null: "not applicable" };

function figure(page, name) {
  return page.getByRole("region", { name: "At the playhead" }).locator(".figure", { hasText: name }).locator("dd");
}

test("every preset in both modes shows the command line's verdicts and review counts", async ({ page }) => {
  test.setTimeout(300_000);
  for (const preset of PRESETS) {
    for (const mode of ["naive", "patterns"]) {
      const run = native(["--preset", preset, "--mode", mode]);
      // The playhead at the run's last event: nothing changes after it.
      await openRisk(page, `preset=${preset}&mode=${mode}&at=${seconds(run.end_ms)}`);
      await expect(page.getByLabel("Preset", { exact: true })).toHaveValue(preset);
      for (const check of run.checks) {
        await expect(verdictOf(page, check.name), `${preset} ${mode} ${check.name}`).toHaveText(WORD[check.holds]);
      }
      await expect(figure(page, "Reviews at the Risk API"), `${preset} ${mode}`).toHaveText(String(run.summary.reviews));
      await expect(figure(page, "Rows in the table")).toHaveText(String(run.summary.rows));
    }
  }
});

test("the naive incident shows the report's six clock times beside the run's", async ({ page }) => {
  await openRisk(page);
  const run = native([]);
  const log = page.getByRole("region", { name: "What happened" });
  // The report's clocks, from the incident report (RISK-MODEL.md).
  const report = ["10:31:08.120", "10:31:08.241", "10:31:10.742", "10:31:10.743", "10:31:12.000", "10:31:12.531"];
  // The run's matching events, from the command line.
  const calls = run.tool_calls.filter((c) => c.tool === "request_risk_review");
  const kind = (k) => run.events.filter((e) => e.kind === k);
  const ran = [
    calls[0].clock,
    kind("row_inserted")[0].clock,
    kind("downstream_timeout")[0].clock,
    run.tool_results.find((r) => r.call === calls[0].call).clock,
    calls[1].clock,
    run.reviews[1].clock,
  ];
  const lines = log.getByRole("listitem");
  await expect(lines).toHaveCount(6);
  for (let i = 0; i < 6; i++) {
    await expect(lines.nth(i)).toContainText(`report ${report[i]}`);
    await expect(lines.nth(i)).toContainText(`run ${ran[i]}`);
  }
  await expect(lines.nth(3)).toContainText("SUBMISSION_FAILED");
  // A line lights up once the playhead reaches it; choosing one moves it there.
  await expect(log.locator(".log-line.past")).toHaveCount(1);
  await lines.nth(5).getByRole("button").click();
  await expect(log.locator(".log-line.past")).toHaveCount(6);
  await expect(mirror(page)).toContainText(`on the wall clock`);
  await expect(mirror(page)).toContainText(`Model time: ${(run.reviews[1].t_ms / 1000).toFixed(3)} s, ${ran[5]}`);
});

test("switching one pattern off flips the check it protects", async ({ page }) => {
  const on = native(["--preset", "not-found-resend", "--mode", "patterns"]);
  const off = native(["--preset", "not-found-resend", "--mode", "patterns", "--cas", "off"]);
  const holds = (run) => run.checks.find((c) => c.name === "single_claim_winner").holds;
  expect([holds(on), holds(off)]).toEqual([true, false]);
  await openRisk(page, `preset=not-found-resend&mode=patterns&at=${seconds(on.end_ms)}`);
  const box = page.getByRole("checkbox", { name: "Compare-and-set claims" });
  await expect(box).toBeChecked();
  await expect(verdictOf(page, "single_claim_winner")).toHaveText("holds");
  await box.uncheck();
  await page.getByRole("slider", { name: "Time" }).fill(String(off.end_ms));
  await expect(verdictOf(page, "single_claim_winner")).toHaveText("fails");
  await expect(page).toHaveURL(/cas=off/);
  // The same switch's line says which check it protects.
  await expect(page.locator(".switch", { has: box })).toContainText("It protects the check \u201cOne claim wins\u201d.");
  // All on puts it back.
  await page.getByRole("button", { name: "All on" }).click();
  await expect(box).toBeChecked();
  await page.getByRole("slider", { name: "Time" }).fill(String(on.end_ms));
  await expect(verdictOf(page, "single_claim_winner")).toHaveText("holds");
});

test("a wrong design chosen on its switch's select reruns, and its line says which check catches it", async ({ page }) => {
  const flags = ["--preset", "check-then-insert-race", "--mode", "patterns"];
  const right = native(flags);
  const wrong = native([...flags, "--unique-business-key", "check-then-insert"]);
  const verdict = (run) => run.checks.find((c) => c.name === "same_business_key_one_review").holds;
  expect([verdict(right), verdict(wrong), wrong.summary.reviews]).toEqual([true, false, 2]);
  await openRisk(page, `preset=check-then-insert-race&mode=patterns&at=${seconds(wrong.end_ms)}`);
  const select = page.getByRole("combobox", { name: "Unique business_key" });
  await expect(verdictOf(page, "same_business_key_one_review")).toHaveText("holds");
  await select.selectOption("check-then-insert");
  await expect(page).toHaveURL(/ubk=check-then-insert/);
  await expect(verdictOf(page, "same_business_key_one_review")).toHaveText("fails");
  await expect(figure(page, "Reviews at the Risk API")).toHaveText("2");
  await expect(page.locator(".switch", { has: select })).toContainText(
    "both insert (the check-then-insert-race preset shows it). It fails the check \u201cSame order, one review\u201d.",
  );
  // The retry-count recovery is a select of its own, among the settings.
  await page.getByRole("combobox", { name: "Worker recovery" }).selectOption("retry-count");
  await expect(page).toHaveURL(/recovery=retry-count/);
});

test("wide-fleet: the Risk API's peak is past 100 with neither the global gate nor its own limit, and within it with the gate; without the per-replica gates calls queue past their bounds", async ({ page }) => {
  test.setTimeout(120_000);
  const flags = ["--preset", "wide-fleet", "--mode", "patterns"];
  const gated = native(flags);
  // Its own admission limit alone keeps the Risk API within 100, so to see
  // what the global gate keeps both are off.
  const open = native([...flags, "--global-gate", "off", "--downstream-limit", "off"]);
  expect([open.downstream_peak_concurrency, gated.downstream_peak_concurrency]).toEqual([1280, 100]);
  const capacity = (run) => run.checks.find((c) => c.name === "downstream_within_capacity");
  expect([capacity(open).holds, capacity(gated).holds]).toEqual([false, true]);
  await openRisk(page, `preset=wide-fleet&mode=patterns&ggate=off&apilimit=off&at=${seconds(open.end_ms)}`);
  const item = checks(page).getByRole("listitem").filter({ hasText: "downstream_within_capacity" });
  await expect(item.locator(".verdict-word")).toHaveText("fails");
  await expect(item).toContainText("at most 1280 at once of a safe 100");
  // Twenty replicas: A to D on their own lanes, the other sixteen on one.
  await expect(page.locator(".risk .lane-titles .lane-title", { hasText: "Replicas E\u2013T (16)" })).toHaveCount(1);
  await expect(page.locator(".risk .lane-titles .lane-title", { hasText: "Replica D" })).toHaveCount(1);
  await page.getByRole("combobox", { name: "Global concurrency gate" }).selectOption("on");
  await page.getByRole("slider", { name: "Time" }).fill(String(native([...flags, "--downstream-limit", "off"]).end_ms));
  await expect(item).toContainText("at most 100 at once of a safe 100");
  await expect(item.locator(".verdict-word")).toHaveText("holds");
  // The per-replica gates off (the rest on): the fleet's quota still keeps
  // the Risk API within 100, but nothing bounds the replicas' queues.
  const unbounded = native([...flags, "--gates", "off"]);
  const fast = unbounded.checks.find((c) => c.name === "overload_fast_bounded");
  expect([unbounded.downstream_peak_concurrency, fast.holds, fast.figures.queue_capacity]).toEqual([100, false, 16]);
  expect(fast.figures.max_queue).toBeGreaterThan(16);
  await openRisk(page, `preset=wide-fleet&mode=patterns&gates=off&at=${seconds(unbounded.end_ms)}`);
  await expect(item).toContainText("at most 100 at once of a safe 100");
  const line = checks(page).getByRole("listitem").filter({ hasText: "overload_fast_bounded" });
  await expect(line.locator(".verdict-word")).toHaveText("fails");
  await expect(line).toContainText(`queued at most ${fast.figures.max_queue} of 16`);
});

test("the deadline budget panel draws Little's law over time and says when in-flight work peaked", async ({ page }) => {
  const run = native(["--preset", "slowing-downstream", "--mode", "patterns"]);
  const peak = Math.max(...run.series.map((p) => p.in_flight_replicas));
  await openRisk(page, `preset=slowing-downstream&mode=patterns&at=${seconds(run.end_ms)}`);
  const panel = page.getByRole("region", { name: "Deadline budget" });
  const chart = panel.getByRole("img", { name: /In-flight work at the replicas is highest/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("polyline")).toHaveCount(2);
  await expect(panel.locator("figcaption")).toContainText(`is highest, ${peak}, at`);
  await expect(panel.locator("figcaption")).toContainText("Little's law");
});

test("a link with aimed faults reopens the same run", async ({ page, context }) => {
  const faults = ["create-response-lost@1", "downstream-5xx@2"];
  const run = native(["--preset", "incident", "--mode", "patterns", ...faults.flatMap((f) => ["--fault", f])]);
  expect(run.faults).toEqual(faults);
  await openRisk(page, `preset=incident&mode=patterns&fault=${faults.join(",")}&at=${seconds(run.end_ms)}`);
  for (const check of run.checks) {
    await expect(verdictOf(page, check.name), check.name).toHaveText(WORD[check.holds]);
  }
  await expect(figure(page, "Reviews at the Risk API")).toHaveText(String(run.summary.reviews));
  const expected = await mirror(page).textContent();
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await page.locator("#share-text").inputValue();
  expect(decodeURIComponent(link)).toContain(`fault=${faults.join(",")}`);
  const other = await context.newPage();
  await other.goto(link);
  await expect(mirror(other)).toHaveText(expected);
  // And the faults made the run: the first create's response lost, call 1
  // is heard as UNKNOWN (timeout_is_unknown is on with every pattern), the
  // agent asks for the review's status, and the lost response converges.
  // Without aimed faults no response is lost and call 1 hears SUCCEEDED.
  await expect(mirror(page)).toContainText(/call 1 at 10:31:08\.120: request_risk_review .* heard UNKNOWN/);
  await expect(mirror(page)).toContainText("lost_response_converges: holds (lost_responses 1, converged 1");
  await openRisk(other, `preset=incident&mode=patterns&fault=none&at=${seconds(run.end_ms)}`);
  await expect(mirror(other)).toContainText(/call 1 at 10:31:08\.120: request_risk_review .* heard SUCCEEDED/);
  await expect(mirror(other)).toContainText("lost_response_converges: not applicable (lost_responses 0");
});

/** Unchecks `box` with a click and reports, at the next frame's layout
 * (a resize observer's first call comes after the frame's animation
 * callbacks and layout, before paint), whether the diagram and the checks
 * panel had the new run; then waits for the checks panel to take it. */
function switchAndLook(box) {
  return box.evaluate(async (el) => {
    const diagram = document.querySelector(".risk svg.diagram");
    const panel = document.querySelector(".risk .checks");
    const before = panel.textContent;
    el.click();
    const atFrame = await new Promise((resolve) => {
      const seen = new ResizeObserver(() => {
        seen.disconnect();
        resolve({ diagram: document.querySelector(".risk svg.diagram") !== diagram, checks: panel.textContent !== before });
      });
      seen.observe(document.body);
    });
    const t0 = performance.now();
    while (panel.textContent === before && performance.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
    return { ...atFrame, checksLater: panel.textContent !== before };
  });
}

test("a pattern switch draws what is in view in its frame, and panels out of view right after", async ({ page }) => {
  const box = page.getByRole("checkbox", { name: "Compare-and-set claims" });
  // 1280 x 720: the checks panel is far below the window. At 6 s both
  // runs are still going, so the playhead stays where it is and the
  // checks panel has nothing to redraw until the new run reaches it.
  await page.setViewportSize({ width: 1280, height: 720 });
  await openRisk(page, "preset=not-found-resend&mode=patterns&at=6");
  await expect(checks(page)).not.toBeInViewport();
  expect(await switchAndLook(box)).toEqual({ diagram: true, checks: false, checksLater: true });
  await expect(verdictOf(page, "single_claim_winner")).toHaveText("fails");
  // A window tall enough to show every panel: all of them in one frame.
  await page.setViewportSize({ width: 1280, height: 4000 });
  await openRisk(page, "preset=not-found-resend&mode=patterns&at=6");
  await expect(checks(page)).toBeInViewport();
  expect(await switchAndLook(box)).toEqual({ diagram: true, checks: true, checksLater: true });
  await expect(verdictOf(page, "single_claim_winner")).toHaveText("fails");
});

test("the state machine marks the naive PENDING → FAILED as illegal", async ({ page }) => {
  const run = native([]);
  const bad = run.transitions.find((t) => !t.legal);
  expect([bad.from, bad.to, bad.cause]).toEqual(["PENDING", "FAILED", "timeout"]);
  await openRisk(page, `at=${seconds(bad.t_ms)}`);
  const machine = page.getByRole("region", { name: "State machine" });
  const item = machine.getByRole("listitem").filter({ hasText: "PENDING → FAILED (timeout)" });
  await expect(item).toContainText("illegal");
  await expect(machine.locator("path.edge.illegal")).toHaveCount(1);
  await expect(machine.getByRole("img")).toHaveAccessibleDescription(/PENDING → FAILED \(timeout\), illegal/);
  // A millisecond earlier nothing illegal has happened yet.
  await page.getByRole("slider", { name: "Time" }).fill(String(bad.t_ms - 1));
  await expect(machine.locator("path.edge.illegal")).toHaveCount(0);
  await expect(machine.getByRole("listitem").filter({ hasText: "illegal" })).toHaveCount(0);
});

test.describe("links", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("a link reopens the same lab, preset, switches and playhead", async ({ page, context }) => {
    await openRisk(page);
    await page.getByLabel("Preset", { exact: true }).selectOption("lost-create-response");
    await page.getByRole("combobox", { name: "Mode" }).selectOption({ label: "Patterns" });
    await page.getByRole("checkbox", { name: "Idempotent create" }).uncheck();
    for (let i = 0; i < 5; i++) await page.getByRole("button", { name: "Next event" }).click();
    const expected = await mirror(page).textContent();
    await page.getByRole("button", { name: "Copy link" }).click();
    const link = await page.locator("#share-text").inputValue();
    expect(link).toMatch(/\/\?lab=risk&/);
    expect(link).toMatch(/[?&]at=/);

    const other = await context.newPage();
    await other.goto(link);
    await expect(mirror(other)).toHaveText(expected);
    await expect(other.getByLabel("Lab", { exact: true })).toHaveValue("risk");
    await expect(other.getByLabel("Preset", { exact: true })).toHaveValue("lost-create-response");
    await expect(other.getByRole("combobox", { name: "Mode" })).toHaveValue("patterns");
    await expect(other.getByRole("checkbox", { name: "Idempotent create" })).not.toBeChecked();
    await expect(other.getByRole("checkbox", { name: "Compare-and-set claims" })).toBeChecked();
  });

  test("a link naming the risk lab opens it on the opening page", async ({ page }) => {
    await page.goto("/?lab=risk&preset=forged-order");
    await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("forged-order");
    await expect(mirror(page)).toContainText("preset forged-order");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page).toHaveTitle("Idempotency Lab: the risk-review incident");

    // The risk lab's own address sends the reader there, with its link.
    await page.goto("/risk/?preset=overload");
    await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("overload");
    const url = new URL(page.url());
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("lab")).toBe("risk");
  });

  test("bad link values get a notice and fall back", async ({ page }) => {
    await page.goto("/risk/?preset=moon&cas=maybe&mode=patterns&at=9999");
    const notices = page.getByRole("status").first();
    await expect(notices).toContainText("preset: \"moon\"");
    await expect(notices).toContainText("cas: \"maybe\"");
    await expect(notices).toContainText("past the end of this run");
    await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("incident");
    await expect(page.getByRole("combobox", { name: "Mode" })).toHaveValue("patterns");
  });
});

test("the exported run is the command line's JSON, and importing it restores the settings", async ({ page }, testInfo) => {
  await openRisk(page, "preset=same-business-key&mode=patterns&ubk=off");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export run (JSON)" }).click(),
  ]);
  const path = testInfo.outputPath("risk-run.json");
  await download.saveAs(path);
  const exported = readFileSync(path, "utf8");
  const cliText = execFileSync(cli, ["risk", "--format", "json", "--preset", "same-business-key", "--mode", "patterns", "--unique-business-key", "off"], { encoding: "utf8" });
  expect(exported).toBe(cliText);

  const [svg] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export diagram (SVG)" }).click()]);
  const svgText = readFileSync(await svg.path(), "utf8");
  expect(svgText.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")).toBe(true);
  expect(svgText).toContain("10:31:08.120");

  await page.getByRole("button", { name: "Reset to the opening settings" }).click();
  await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("incident");
  await page.getByLabel("Import settings").setInputFiles(path);
  await expect(page.locator(".notice")).toContainText("Imported settings from risk-run.json.");
  await expect(page.getByLabel("Preset", { exact: true })).toHaveValue("same-business-key");
  await expect(page.getByRole("combobox", { name: "Unique business_key" })).toHaveValue("off");
});

test("a preset's question hides the verdicts until the reader predicts", async ({ page }) => {
  await openRisk(page);
  await page.getByRole("button", { name: "Same order, new request_key (second click)" }).click();
  const card = page.locator(".experiment-card");
  await expect(card).toContainText("Predict:");
  // The question is asked where the reader is.
  await expect(page.locator("#question-title")).toBeFocused();
  await expect(verdictOf(page, "same_business_key_one_review")).toHaveText("?");
  await expect(figure(page, "Reviews at the Risk API")).toHaveText("?");
  // RISK-MODEL.md's second click, with the naive server: the second call
  // carries a new request_key for the same order, and with no unique
  // business_key its INSERT makes a second row, whose create makes a
  // second review. Two reviews, and the check fails.
  await card.getByRole("button", { name: "1", exact: true }).click();
  await expect(card.locator(".answer")).toHaveText("Not quite: you said 1; the run shows 2.");
  await expect(figure(page, "Reviews at the Risk API")).toHaveText("2");
  await expect(verdictOf(page, "same_business_key_one_review")).toHaveText("fails");
});

test("keyboard shortcuts step through events and the live region says what happened", async ({ page }) => {
  const run = native([]);
  const times = [...new Set(run.events.map((e) => e.t_ms))];
  const at = (t) => run.events.filter((e) => e.t_ms === t);
  await openRisk(page);
  await page.locator("h1").click();
  const live = page.locator("[aria-live=polite]");
  const readout = page.getByRole("region", { name: "Playback" }).locator("output");
  for (const t of times.slice(1, 3)) {
    await page.keyboard.press("ArrowRight");
    await expect(readout).toContainText(`Wall clock ${at(t)[0].clock}`);
    await expect(live).toContainText(at(t)[0].text);
  }
  await page.keyboard.press("ArrowLeft");
  await expect(readout).toContainText(`Wall clock ${at(times[1])[0].clock}`);
  await page.keyboard.press("Home");
  await expect(readout).toContainText(`Wall clock ${at(0)[0].clock}`);
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
});

test("reconstructing a call reads its keys, policy and transitions from the run", async ({ page }) => {
  const run = native([]);
  await openRisk(page, `at=${seconds(run.end_ms)}`);
  const panel = page.getByRole("region", { name: "Reconstruct a tool call" });
  await expect(panel.getByLabel("Tool call")).toHaveValue("1");
  await expect(panel).toContainText("acting for u-1001 (from the trusted context)");
  await expect(panel).toContainText("not checked: authorization is off");
  const first = run.transitions.filter((t) => t.row === "R10086").map((t) => `${t.from ?? "new row"} → ${t.to} (${t.cause}`);
  for (const t of first) await expect(panel).toContainText(t);
  // The menu lists every call once the reader reaches for it.
  await panel.getByLabel("Tool call").focus();
  await expect(panel.getByLabel("Tool call").locator("option")).toHaveCount(run.tool_calls.length);
  await panel.getByLabel("Tool call").selectOption("2");
  await expect(panel).toContainText("R10087");
  const budget = page.getByRole("region", { name: "Deadline budget" });
  await expect(budget).toContainText("call 2: answered after");
  await expect(budget.getByRole("img", { name: /^Budget of 5.00 s: auth\/policy 0.10 s, database 0.30 s, Risk API 2.50 s, reserve 2.10 s$/ })).toBeVisible();
});

test("the overload preset shows the gates and Little's law", async ({ page }) => {
  const run = native(["--preset", "overload", "--mode", "patterns"]);
  await openRisk(page, `preset=overload&mode=patterns&at=${seconds(run.end_ms)}`);
  const load = page.getByRole("region", { name: "Gates and queues" });
  await expect(load).toContainText("Little's law");
  await expect(load).toContainText(`${run.summary.tool_calls} calls arrived`);
  await expect(load).toContainText(`So far at most ${run.gates.A.max_in_flight} in flight and ${run.gates.A.max_queue} queued; ${run.gates.A.overloaded} OVERLOADED.`);
  // One line per kind of alert, however many replicas and moments it covers.
  const alerts = page.getByRole("region", { name: "Alerts" }).locator("li.alert");
  const kinds = await alerts.evaluateAll((items) => items.map((li) => li.className));
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds).size).toBe(kinds.length);
  await expect(alerts.filter({ hasText: "Queues full" })).toHaveCount(1);
  await expect(alerts.filter({ hasText: "Queues full" })).toContainText(`(${run.gates.A.max_queue} of ${run.gates.A.max_queue})`);
});

test("with the gates off the overload preset's alerts are one line per kind, not one per call", async ({ page }) => {
  const run = native(["--preset", "overload", "--mode", "naive"]);
  await openRisk(page, `preset=overload&mode=naive&at=${seconds(run.end_ms)}`);
  const alerts = page.getByRole("region", { name: "Alerts" }).locator("li.alert");
  const kinds = await alerts.evaluateAll((items) => items.map((li) => li.className));
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds).size).toBe(kinds.length);
  // The gates' absence is one line with its count, not a line per call.
  await expect(alerts.filter({ hasText: "No gates:" })).toHaveCount(1);
});

test("Turn it off flips the switch on the run on screen, and the check it protects turns to fails", async ({ page }) => {
  for (const [label, link, check] of [
    ["Compare-and-set claims", "cas", "single_claim_winner"],
    ["Authorization on the server", "authz", "forged_no_downstream"],
    ["Unique business_key", "ubk", "same_business_key_one_review"],
  ]) {
    await openRisk(page);
    await page.getByRole("button", { name: `Show me: ${label}` }).click();
    const slider = page.getByRole("slider", { name: "Time" });
    await slider.press("End");
    const box = page.getByRole("combobox", { name: label }).or(page.getByRole("checkbox", { name: label }));
    await expect(verdictOf(page, check), `${label} on`).not.toHaveText("fails");
    await page.getByRole("button", { name: `Turn it off: ${label}` }).click();
    await expect(page).toHaveURL(new RegExp(`${link}=off`));
    if ((await box.getAttribute("type")) === "checkbox") await expect(box).not.toBeChecked();
    else await expect(box).toHaveValue("off");
    await slider.press("End");
    await expect(verdictOf(page, check), `${label} off`).toHaveText("fails");
    await expect(page.locator(".switch", { has: box }).getByRole("status")).toContainText("now fails");
  }
});

test("Where it broke names the harm when authorization, CAS or FindByRequestKey is off", async ({ page }) => {
  const region = page.locator("section.where-it-broke");
  for (const [query, words] of [
    [
      "preset=forged-order&mode=patterns&authz=off",
      "Replica A lane, at 10:31:08.241 (0.121 s): A forged call for O20260728999, another user's order, reached the Risk API.",
    ],
    [
      "preset=not-found-resend&mode=patterns&cas=off",
      "Worker 2 lane, at 10:31:13.122 (5.002 s): Worker W2 resent R10086's create right after worker W1 did, at the same version: two claims won.",
    ],
    [
      "preset=lost-create-response&mode=patterns&find=off",
      "Database lane, at 10:31:10.742 (2.622 s): Row R10086 became UNKNOWN and is still UNKNOWN at the end: nothing settled it.",
    ],
  ]) {
    await openRisk(page, query);
    await page.getByRole("slider", { name: "Time" }).press("End");
    await expect(region, query).toContainText(words);
    await expect(region, query).not.toContainText("Nothing");
  }
});

test("360 px wide: nothing but the diagram and the table scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  for (const query of ["", "preset=overload&mode=patterns&at=2", "embed=1&at=4.432"]) {
    await openRisk(page, query);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0], query).toBeLessThanOrEqual(widths[1]);
  }
  await openRisk(page);
  await page.getByRole("button", { name: "Lost create request: probe, claim, resend" }).click();
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]);
});

test("a run wider than the timeline's box says it scrolls; the sequence layout, drawn for the box, does not", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openRisk(page, "preset=incident&mode=naive");
  const timeline = page.getByRole("region", { name: "Timeline" });
  expect(await timeline.locator(".timeline-scroll").evaluate((s) => s.scrollWidth > s.clientWidth + 1)).toBe(true);
  await expect(timeline.locator(".scroll-cue")).toHaveText(/wider than the box: scroll it sideways/);
  await timeline.getByRole("combobox", { name: "Layout" }).selectOption("sequence");
  await expect(timeline.locator(".timeline-frame.sequence")).toBeVisible();
  await expect(timeline.locator(".scroll-cue")).toHaveCount(0);
});

test.describe("accessibility", () => {
  // Injecting axe needs an inline script, so only these tests bypass the CSP.
  test.use({ bypassCSP: true });
  for (const [view, query] of [["normal", "at=4.432"], ["embed", "embed=1&preset=not-found-resend&mode=patterns&at=3.5"]]) {
    for (const scheme of ["light", "dark"]) {
      test(`axe finds no serious or critical violations on the risk page: ${view} view, ${scheme}`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await openRisk(page, query);
        if (view === "normal") {
          // States that only appear after interaction.
          await page.getByRole("button", { name: "Copy link" }).click();
          await page.getByRole("button", { name: "Lost create request: probe, claim, resend" }).click();
          await page.getByText("Faults and the burst").click();
          await page.getByLabel("Calls in the burst").fill("0");
        }
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  }
});
