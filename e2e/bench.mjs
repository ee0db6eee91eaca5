// `make bench`: prints a table of figures. Nothing here passes or fails;
// the machines are shared and noisy, so figures are for comparison.
//
//   node bench.mjs   (from e2e/, after `trunk build --release`)
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { chromium } from "playwright-core";

// E2E_ROOT names another build, as for the Playwright tests.
const dist = process.env.E2E_ROOT ? `${process.env.E2E_ROOT.replace(/\/$/, "")}/` : new URL("../dist/", import.meta.url).pathname;
const rows = [];
const row = (name, value) => rows.push([name, value]);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// Bundle sizes: what the opening page downloads, and what the storm lab's
// page downloads on first use (its own bundle and its worker).
function sizes(dir, files) {
  const size = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const bytes = readFileSync(dir + f);
    size.raw += bytes.length;
    size.gzip += gzipSync(bytes, { level: 9 }).length;
    size.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return size;
}
const fmt = (s) => `${kb(s.raw)} / ${kb(s.gzip)} / ${kb(s.brotli)} (gzip ${(s.gzip / 1000).toFixed(1)} kB)`;
const filesIn = (dir) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
const byKind = { wasm: [".wasm"], js: [".js", ".mjs"], css: [".css"], "html and icon": [".html", ".svg"] };

const port = 8190;
const server = spawn("node", ["serve.mjs", "--root", dist, "--port", String(port)], { stdio: "ignore" });
await new Promise((r) => setTimeout(r, 500));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// What a page really downloads: every file our server sent while the page
// opened and rendered, in a fresh browser context (an empty cache), as paths
// under dist/. With `use`, what the page downloads for it afterwards.
async function downloads(path, ready, use) {
  const page = await browser.newPage();
  const files = new Set();
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.port !== String(port) || r.status() !== 200) return;
    let file = decodeURIComponent(url.pathname);
    if (file.endsWith("/")) file += "index.html";
    files.add(file.slice(1));
  });
  await page.goto(`http://127.0.0.1:${port}${path}`);
  await ready(page);
  await page.waitForLoadState("networkidle");
  const opened = new Set(files);
  if (use) await use(page);
  await page.close();
  return [...files].filter((f) => !use || !opened.has(f)).sort();
}

// Budgets are gzip bytes (1 kB = 1000 bytes) for everything a page
// downloads: 200 kB for the opening page (code loaded on first use is
// reported apart) and 250 kB for the risk lab opened by a link.
const against = (size, budget) =>
  size.gzip <= budget
    ? `within, ${((budget - size.gzip) / 1000).toFixed(1)} kB to spare`
    : `over by ${((size.gzip - budget) / 1000).toFixed(1)} kB`;
try {
  const opening = await downloads("/", (p) => p.waitForSelector(".mirror-text"));
  for (const [name, exts] of Object.entries(byKind)) {
    row(`opening page ${name} (raw / gzip / brotli)`, fmt(sizes(dist, opening.filter((f) => exts.some((e) => f.endsWith(e))))));
  }
  const total = sizes(dist, opening);
  row("opening page total (raw / gzip / brotli)", fmt(total));
  row("opening page against its 200 kB gzip budget", against(total, 200_000));
  row("opening page files", opening.join(", "));
  // The whole first lab: what the opening page downloads when the reader
  // first reaches for a part its own build leaves out (run B, here).
  const whole = await downloads(
    "/",
    (p) => p.waitForSelector(".mirror-text"),
    async (p) => {
      await p.getByRole("button", { name: "Compare with…" }).click();
      await p.getByRole("region", { name: "Differences" }).waitFor();
      await p.waitForLoadState("networkidle");
    },
  );
  row("whole first lab, loaded on first use (raw / gzip / brotli)", `${fmt(sizes(dist, whole))}: ${whole.join(", ")}`);
  // The custom element on a host page: what it adds to the lab's own files
  // (its module and shadow-root styles), loaded only where a host uses it.
  const host = await downloads("/examples/element.html", (p) => p.locator("idempotency-lab").first().waitFor());
  const element = host.filter((f) => !opening.includes(f) && !f.startsWith("examples/"));
  row("custom element, beyond the opening page (raw / gzip / brotli)", `${fmt(sizes(dist, element))}: ${element.join(", ")}`);
  // The risk lab opened by a link: everything the page downloads for it.
  const riskLink = await downloads("/?lab=risk", (p) => p.waitForSelector(".risk .check-list li"));
  const riskTotal = sizes(dist, riskLink);
  row("risk lab opened by a link, everything (raw / gzip / brotli)", fmt(riskTotal));
  row("risk lab opened by a link, against its 250 kB gzip budget", against(riskTotal, 250_000));
  row("risk lab opened by a link, files", riskLink.join(", "));
  // The risk lab's whole build: what the page downloads when the reader
  // first compares two risk runs.
  const riskWhole = await downloads(
    "/?lab=risk",
    (p) => p.waitForSelector(".risk .check-list li"),
    async (p) => {
      await p.getByRole("button", { name: "Compare with…" }).click();
      await p.getByRole("region", { name: "Differences" }).waitFor();
      await p.waitForLoadState("networkidle");
    },
  );
  row("whole risk lab, loaded on first use (raw / gzip / brotli)", `${fmt(sizes(dist, riskWhole))}: ${riskWhole.join(", ")}`);
} catch (e) {
  await browser.close();
  server.kill();
  throw e;
}
const storms = `${dist}storms/`;
const stormFiles = filesIn(storms);
const worker = stormFiles.filter((f) => f.startsWith("storm-worker"));
row("storm page on first use, page (raw / gzip / brotli)", fmt(sizes(storms, stormFiles.filter((f) => !worker.includes(f)))));
row("storm page on first use, worker (raw / gzip / brotli)", fmt(sizes(storms, worker)));

// The cores, natively, on one thread.
const cli = new URL("../target/release/idempotency-lab", import.meta.url).pathname;
const figures = (args, keep) => {
  const out = execFileSync(cli, args, { encoding: "utf8" });
  const got = {};
  for (const line of out.trim().split("\n")) {
    const [name, value] = line.split("\t");
    got[name] = value;
    if (keep(name)) row(name, Number.isNaN(Number(value)) ? value : Number(value).toLocaleString("en-US"));
  }
  return got;
};
figures(["bench", "--runs", "3000000"], (n) => n.includes("/s") || n.includes("ns/run"));
figures(["bench", "--lab", "risk"], () => true);
const storm = figures(["bench", "--lab", "storm"], () => true);
// The same sweep by the Python port of the published simulator's rules.
const python = Number(execFileSync("python3", ["../scripts/aws_backoff_port.py", "--sweep", "--reps", "100", "--seed", "1", "--time-only"], { encoding: "utf8" }).trim());
row("aws sweep seconds, Python port", python.toFixed(1));
row("aws sweep: native speed over the Python port (1 thread)", `${(python / Number(storm["aws sweep seconds (1 thread)"])).toFixed(0)}x`);
row("aws sweep: native speed over the Python port (2 threads)", `${(python / Number(storm["aws sweep seconds (2 threads)"])).toFixed(0)}x`);

// The page in headless Chromium.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// One switch's work on the main thread, read from Chromium's own trace
// (`kind`: "lab" alternates the risk and the first lab through the Lab
// switcher; "pattern" toggles a pattern on the risk page), `n` times, as
// medians in ms:
// - the script: the task that handles the change, with every effect it
//   runs;
// - the frame: the next task that renders a frame (animation-frame
//   callbacks, style, layout, paint);
// - one frame's work: the two together, what the reader waits for;
// - everything: every main-thread task from the change until the page has
//   settled, including the browser's own housekeeping (autofill looks at a
//   changed form again), the address following the change, and, for a
//   pattern switch, the panels out of view, which take the new run in a
//   task after the frame.
// Idle time is not counted, and a task the trace shows to be another is
// not mistaken for the frame's.
async function frameWork(page, kind, n) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories: "toplevel,devtools.timeline,blink.user_timing", transferMode: "ReportEvents" });
  await page.evaluate(
    async ([kind, n]) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      const act = (i) => {
        if (kind === "lab") {
          const to = i % 2 === 0 ? "risk" : "ack";
          const select = document.getElementById("lab-switch");
          select.value = to;
          select.dispatchEvent(new Event("change", { bubbles: true }));
          const shown = () => document.documentElement.dataset.lab === to;
          return [shown, shown];
        }
        const box = document.getElementById("f-cas");
        const diagram = document.querySelector(".risk svg.diagram");
        const checks = document.querySelector(".checks");
        const before = checks.textContent;
        box.checked = !box.checked;
        box.dispatchEvent(new Event("change", { bubbles: true }));
        return [() => document.querySelector(".risk svg.diagram") !== diagram, () => checks.textContent !== before];
      };
      for (let i = 0; i < n; i++) {
        await new Promise((r) => setTimeout(r, 60));
        performance.mark(`switch-${i}`);
        const [shown, settled] = act(i);
        await frame();
        if (!shown()) throw new Error(`the ${kind} switch did not take`);
        for (let waits = 0; !settled(); waits++) {
          if (waits > 100) throw new Error(`the panels out of view never took the ${kind} switch`);
          await new Promise((r) => setTimeout(r));
        }
        await frame();
        // Past the page's deferred work too: the address follows the
        // settings 120 ms after a change.
        await new Promise((r) => setTimeout(r, 150));
        performance.mark(`settled-${i}`);
      }
    },
    [kind, n],
  );
  await cdp.send("Tracing.end");
  await complete;
  await cdp.detach();
  const mark = (name) => events.find((e) => e.name === name);
  const { pid, tid } = mark("switch-0");
  // Top-level tasks, named differently by Chromium's builds.
  const taskName = events.some((e) => e.name === "ThreadControllerImpl::RunTask") ? "ThreadControllerImpl::RunTask" : "RunTask";
  const tasks = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.name === taskName)
    .sort((a, b) => a.ts - b.ts);
  const framed = new Set(
    events.filter((e) => e.pid === pid && e.tid === tid && (e.name === "PrePaint" || e.name === "FireAnimationFrame")).map((e) => e.ts),
  );
  const isFrame = (task) => [...framed].some((ts) => ts >= task.ts && ts <= task.ts + task.dur);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const from = mark(`switch-${i}`).ts;
    const to = mark(`settled-${i}`).ts;
    const script = tasks.find((t) => t.ts <= from && from <= t.ts + t.dur);
    const frameTask = tasks.find((t) => t.ts > script.ts + script.dur && isFrame(t));
    // The main thread's own time, so work other processes take from it
    // on a shared machine is not counted. The change's task and the frame
    // must have it; a few short tasks in the rest may not, and count with
    // their wall time.
    const cpu = (t) => {
      if (t.tdur === undefined) throw new Error("the trace has no thread time for the switch's own tasks");
      return t.tdur;
    };
    const all = tasks.filter((t) => t.ts >= script.ts && t.ts < to).reduce((sum, t) => sum + (t.tdur ?? t.dur), 0);
    rows.push([cpu(script), cpu(frameTask), cpu(script) + cpu(frameTask), all].map((us) => us / 1000));
  }
  return [0, 1, 2, 3].map((i) => median(rows.map((r) => r[i])).toFixed(1));
}
try {
  const loads = [];
  for (let i = 0; i < 10; i++) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    const t = await page.waitForFunction(() => {
      const m = performance.getEntriesByName("idempotency-lab:rendered")[0];
      return m && m.startTime;
    });
    loads.push(await t.jsonValue());
    await page.close();
  }
  row("page: navigation to first complete render (median of 10)", `${median(loads).toFixed(0)} ms`);

  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForSelector(".mirror-text");
  const times = await page.evaluate(async () => {
    const box = document.getElementById("f-dedup");
    const counter = document.querySelector(".figure .counter");
    const out = [];
    for (let i = 0; i < 20; i++) {
      const before = counter.textContent;
      const t0 = performance.now();
      box.checked = !box.checked;
      box.dispatchEvent(new Event("change", { bubbles: true }));
      // Effects run as microtasks; a zero timeout runs after all of them.
      await new Promise((r) => setTimeout(r, 0));
      const t1 = performance.now();
      if (counter.textContent === before) throw new Error("the counter did not change");
      out.push(t1 - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
    }
    return out;
  });
  row("page: change a setting to updated DOM (median of 20)", `${median(times).toFixed(1)} ms`);

  // The storm page: a 10 000-client run and the AWS sweep, in the worker.
  const stormPage = await browser.newPage();
  const totals = stormPage.getByRole("region", { name: "Totals" });
  let t0 = Date.now();
  await stormPage.goto(`http://127.0.0.1:${port}/storms/?clients=10000`);
  await totals.getByText("Intents", { exact: true }).waitFor({ timeout: 120_000 });
  row("storm page: open and run 10 000 clients in the browser", `${Date.now() - t0} ms`);
  // Clients first: the contention workload allows at most 1000.
  await stormPage.getByLabel("Clients", { exact: true }).fill("100");
  await stormPage.getByLabel("Workload").selectOption("occ");
  t0 = Date.now();
  await stormPage.getByRole("button", { name: "Run sweep" }).click();
  // Frames on the page while the worker sweeps.
  const longest = stormPage.evaluate(
    () =>
      new Promise((resolve) => {
        let last = performance.now();
        let worst = 0;
        const tick = (now) => {
          worst = Math.max(worst, now - last);
          last = now;
          if (document.querySelector("progress")) requestAnimationFrame(tick);
          else resolve(worst);
        };
        requestAnimationFrame(tick);
      }),
  );
  await stormPage.getByRole("img", { name: /^Work: write calls/ }).waitFor({ timeout: 300_000 });
  row("storm page: AWS sweep (95 cells x 100 runs) in the browser", `${((Date.now() - t0) / 1000).toFixed(1)} s`);
  row("storm page: longest frame while the sweep ran", `${(await longest).toFixed(0)} ms`);

  // The risk lab: on the opening page, what reaching for the Lab switcher
  // downloads and how long switching takes.
  const riskDir = `${dist}risk/`;
  const riskPage = await browser.newPage();
  {
    await riskPage.goto(`http://127.0.0.1:${port}/?dedup=off`);
    await riskPage.waitForSelector(".mirror-text");
    await riskPage.waitForLoadState("networkidle");
    const fetched = new Set();
    riskPage.on("response", (r) => {
      const url = new URL(r.url());
      if (url.port === String(port) && r.status() === 200) fetched.add(decodeURIComponent(url.pathname).slice(1));
    });
    await riskPage.getByLabel("Lab", { exact: true }).hover();
    await riskPage.waitForFunction(() =>
      ["risk", "storms"].every((lab) => window.idempotencyLab.roots[lab]?.querySelector(".app")),
    );
    await riskPage.waitForLoadState("networkidle");
    const of = (dir) => [...fetched].filter((f) => f.startsWith(dir)).map((f) => f.slice(dir.length));
    row("risk lab, loaded on first reach for the Lab switcher", fmt(sizes(riskDir, of("risk/"))));
    row("storm lab, loaded on first reach for the Lab switcher", fmt(sizes(`${dist}storms/`, of("storms/"))));
  }
  // A switch between labs made ready, as one frame's work.
  const labSwitches = await frameWork(riskPage, "lab", 20);
  row("Lab switcher, ready lab: script (median of 20)", `${labSwitches[0]} ms`);
  row("Lab switcher, ready lab: the frame's rendering, with paint (median of 20)", `${labSwitches[1]} ms`);
  row("Lab switcher, ready lab: one frame's work (median of 20)", `${labSwitches[2]} ms (a frame is 16.7 ms)`);
  row("Lab switcher, ready lab: all the main thread's work until the page settles (median of 20)", `${labSwitches[3]} ms`);
  // The first switch when nothing was made ready (the switcher was used
  // without the pointer or the focus reaching it first, as by a script).
  const colds = [];
  for (let i = 0; i < 5; i++) {
    await riskPage.goto(`http://127.0.0.1:${port}/?dedup=off`);
    await riskPage.waitForSelector(".mirror-text");
    colds.push(
      await riskPage.evaluate(async () => {
        const t0 = performance.now();
        const select = document.getElementById("lab-switch");
        select.value = "risk";
        select.dispatchEvent(new Event("change", { bubbles: true }));
        while (!document.querySelector(".risk .check-list li")) await new Promise((r) => requestAnimationFrame(r));
        return performance.now() - t0;
      }),
    );
  }
  row("Lab switcher, lab not loaded yet: to the rendered risk lab (median of 5)", `${median(colds).toFixed(0)} ms`);
  // The first use of a part an opening build leaves out: from the click
  // on Compare with… to the frame that shows the lab's whole build in its
  // place, with run B (a fresh page each time).
  const handOver = async (path, ready, name) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      await riskPage.goto(`http://127.0.0.1:${port}${path}`);
      await riskPage.waitForSelector(ready);
      times.push(
        await riskPage.evaluate(async (name) => {
          const t0 = performance.now();
          [...document.querySelectorAll("button")].find((b) => b.textContent === "Compare with…").click();
          const shown = () => {
            const region = document.querySelector('[aria-labelledby="differences-h"]');
            return region && !region.closest(".lab-drawn-unseen");
          };
          while (!shown()) {
            if (performance.now() - t0 > 20_000) throw new Error(`the whole ${name} did not come in 20 s`);
            await new Promise((r) => requestAnimationFrame(r));
          }
          return performance.now() - t0;
        }, name),
      );
    }
    return median(times).toFixed(0);
  };
  row("whole first lab on first use: Compare with… to run B on screen (median of 5)", `${await handOver("/", ".mirror-text", "first lab")} ms`);
  row(
    "whole risk lab on first use: Compare with… to run B on screen (median of 5)",
    `${await handOver("/?lab=risk", ".risk .check-list li", "risk lab")} ms`,
  );
  await riskPage.goto(`http://127.0.0.1:${port}/risk/?preset=not-found-resend&mode=patterns&at=6`);
  await riskPage.waitForSelector(".risk .check-list li");
  const switches = await frameWork(riskPage, "pattern", 40);
  row("risk page: switch a pattern, script to updated DOM (median of 40)", `${switches[0]} ms`);
  row("risk page: switch a pattern, the frame's rendering, with paint (median of 40)", `${switches[1]} ms`);
  row("risk page: switch a pattern, one frame's work (median of 40)", `${switches[2]} ms (a frame is 16.7 ms)`);
  row("risk page: switch a pattern, all the main thread's work until every panel has the new run (median of 40)", `${switches[3]} ms`);
} finally {
  await browser.close();
  server.kill();
}

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`| ${"figure".padEnd(width)} | value |`);
console.log(`| ${"-".repeat(width)} | ----- |`);
for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value} |`);
