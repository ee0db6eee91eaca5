// `make bench`: prints a table of figures. Nothing here passes or fails;
// the machines are shared and noisy, so figures are for comparison.
//
//   node bench.mjs   (from e2e/, after `make dist` and a release build)
//
// The labs come from the registry, through `idempotency-lab labs`.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { chromium } from "playwright-core";

// E2E_ROOT names another build, as for the Playwright tests.
const dist = process.env.E2E_ROOT ? `${process.env.E2E_ROOT.replace(/\/$/, "")}/` : new URL("../dist/", import.meta.url).pathname;
const cli = new URL("../target/release/idempotency-lab", import.meta.url).pathname;
const labs = JSON.parse(execFileSync(cli, ["labs", "--format", "json"], { encoding: "utf8" })).map((l) => l.id);
const rows = [];
const row = (name, value) => rows.push([name, value]);
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

// The longest frame while `selector` is on the page (from the next frame
// on), in milliseconds.
function longestFrameWhile(page, selector) {
  return page.evaluate(
    (selector) =>
      new Promise((resolve) => {
        let last = performance.now();
        let worst = 0;
        const tick = (now) => {
          worst = Math.max(worst, now - last);
          last = now;
          if (document.querySelector(selector)) requestAnimationFrame(tick);
          else resolve(worst);
        };
        requestAnimationFrame(tick);
      }),
    selector,
  );
}

function sizes(files) {
  const size = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const bytes = readFileSync(dist + f);
    size.raw += bytes.length;
    size.gzip += gzipSync(bytes, { level: 9 }).length;
    size.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return size;
}
const fmt = (s) => `${kB(s.gzip)} gzip (raw ${kB(s.raw)}, brotli ${kB(s.brotli)})`;
// What the server sent for a page's files (see `downloads`): the bytes on
// the wire, how many files went in each encoding, and the files' sizes.
function fmtSent(got) {
  const bytes = got.reduce((sum, d) => sum + d.bytes, 0);
  const by = {};
  for (const d of got) by[d.encoding] = (by[d.encoding] ?? 0) + 1;
  const encodings = Object.entries(by).map(([e, n]) => `${n} ${e}`);
  return `${kB(bytes)} sent (${encodings.join(", ")}); ${fmt(sizes(got.map((d) => d.file)))}`;
}
// Sizes are gzip bytes (1 kB = 1000 bytes) of everything a page downloads.
const BUDGET = 250_000;
const against = (size) =>
  size.gzip <= BUDGET ? `within 250 kB, ${kB(BUDGET - size.gzip)} to spare` : `over 250 kB by ${kB(size.gzip - BUDGET)}`;

const port = 8190;
// The server sends each file as the build's brotli copy to Chromium, as a
// host that serves the copies would (README, "Serving the build").
const server = spawn("node", ["serve.mjs", "--root", dist, "--port", String(port)], { stdio: "ignore" });
await new Promise((r) => setTimeout(r, 500));
const origin = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

/** The wide-fleet rerun in the browser, for its events per second. */
let wideFleetBrowserMs = NaN;

// A lab says it is usable with `data-ready` on its root (it sets it once
// it answers its reader: for the storm lab, once its worker has answered
// with the first run's totals); a lab that replays a run is usable once
// Play answers a click.
const READY = ".lab-root[data-ready]";
async function usable(page) {
  // One look a frame: ready, and whether it has a Play button.
  const ready = await page.waitForFunction(
    (selector) => {
      const root = document.querySelector(selector);
      return root && { replays: [...root.querySelectorAll("button")].some((b) => b.textContent.trim() === "Play") };
    },
    READY,
    { timeout: 60_000, polling: "raf" },
  );
  if (!(await ready.jsonValue()).replays) return;
  await page.getByRole("button", { name: "Play", exact: true }).click({ timeout: 60_000 });
  await page.getByRole("button", { name: "Pause", exact: true }).waitFor({ timeout: 60_000 });
}
const pageOf = (lab) => (lab === labs[0] ? "/" : `/?lab=${lab}`);

// Every file our server sent while `path` opened until `ready`, in a fresh
// context (an empty cache), by path under dist/: each one's `file`, its
// `bytes` on the wire (the answer's Content-Length) and its `encoding`.
async function downloads(path, ready) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const sent = new Map();
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.port !== String(port) || r.status() !== 200) return;
    let file = decodeURIComponent(url.pathname);
    if (file.endsWith("/")) file += "index.html";
    const headers = r.headers();
    sent.set(file.slice(1), { bytes: Number(headers["content-length"]), encoding: headers["content-encoding"] ?? "identity" });
  });
  await page.goto(origin + path);
  await ready(page);
  await page.waitForLoadState("networkidle");
  await context.close();
  return [...sent.keys()].sort().map((file) => ({ file, ...sent.get(file) }));
}

// The phone profile: 150 ms round trip, 1.6 Mbps down, 750 kbps up, the
// CPU 4x slower (Chromium's throttling, as Lighthouse's mobile profile).
// Times are from the navigation's start to the diagram on screen (the
// timeline's SVG with its marks) and to usable, medians of `n` fresh
// contexts.
async function onPhone(path, lab, n) {
  const diagram = [];
  const ready = [];
  const phases = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, serviceWorkers: "block" });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(origin + path, { waitUntil: "commit" });
    // The diagram's SVG with its marks drawn (not the arrowheads' defs),
    // or for a lab whose picture is its charts (the storm lab's), a chart
    // with its lines; a lab ready with neither has none.
    const drawn = await page.waitForFunction(
      (ready) => {
        const marks = [...document.querySelectorAll("svg.diagram path, svg.chart-svg path")].some(
          (p) => !p.closest("defs") && p.getBoundingClientRect().width > 0 && p.checkVisibility({ visibilityProperty: true }),
        );
        if (marks) return performance.now();
        return document.querySelector(ready) && !document.querySelector("svg.diagram, svg.chart-svg") ? -1 : false;
      },
      READY,
      { timeout: 60_000, polling: "raf" },
    );
    const at = await drawn.jsonValue();
    if (at >= 0) diagram.push(at);
    await usable(page);
    ready.push(await page.evaluate(() => performance.now()));
    phases.push(
      await page.evaluate((lab) => {
        const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
        const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith(`/${lab}_bg.wasm`));
        return {
          "page's HTML in": performance.getEntriesByType("navigation")[0]?.responseEnd,
          "WebAssembly in": wasm?.responseEnd,
          "module ready": at(`idempotency-lab:ready:${lab}`),
          "mounting starts": at("idempotency-lab:mount"),
          "mounted": at("idempotency-lab:mounted"),
          "first frame": at("idempotency-lab:rendered"),
        };
      }, lab),
    );
    await context.close();
  }
  const where = Object.keys(phases[0]).map((k) => `${k} ${ms(median(phases.map((p) => p[k] ?? NaN)))}`);
  return { diagram: diagram.length ? median(diagram) : null, usable: median(ready), where: where.join(", ") };
}

// A trace file opened on the first lab's page through "Open a trace": from
// handing the file to the page to its checks on screen (the page reads and
// checks it on its main thread), the median of `n` fresh pages, the
// phone's with its CPU 4x slower. (Timed from outside the page: a frame
// clock inside it misses the long task that reads the file.)
async function traceOpened(path, phone, n) {
  const checks = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext(
      phone ? { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, serviceWorkers: "block" } : { serviceWorkers: "block" },
    );
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForSelector(READY, { timeout: 60_000 });
    if (phone) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const t0 = Date.now();
    await page.getByLabel("Open a trace").setInputFiles(path);
    await page.getByRole("list", { name: "Checks of the trace" }).getByText("intents_judged").first().waitFor({ timeout: 120_000 });
    checks.push(Date.now() - t0);
    await context.close();
  }
  return { checks: median(checks) };
}

// Switching labs once their bundles are fetched (the pointer reached the
// switcher): from the change to the frame that draws the next lab's page
// (its masthead, settings and panels; the storm lab's first results come
// from its worker later), `n` times back and forth between `a` and `b`.
async function labSwitch(a, b, n) {
  const page = await browser.newPage({ serviceWorkers: "block" });
  await page.goto(origin + pageOf(a));
  await page.waitForSelector(READY);
  await page.getByLabel("Lab", { exact: true }).hover();
  await page.waitForLoadState("networkidle");
  // Each lab once, so its module is compiled and started.
  for (const lab of [b, a]) {
    await page.getByLabel("Lab", { exact: true }).selectOption(lab);
    await page.waitForSelector(READY, { timeout: 60_000 });
  }
  const times = await page.evaluate(
    async ([a, b, n, ready]) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const to = i % 2 === 0 ? b : a;
        await new Promise((r) => setTimeout(r, 100));
        const t0 = performance.now();
        const select = document.getElementById("lab-switch");
        select.value = to;
        select.dispatchEvent(new Event("change", { bubbles: true }));
        const drawn = () =>
          document.documentElement.dataset.lab === to &&
          [...document.querySelectorAll(".app")].some((app) => app.checkVisibility() && app.querySelector(".masthead"));
        while (!drawn()) {
          if (performance.now() - t0 > 20_000) throw new Error(`no ${to} lab after 20 s`);
          await new Promise((r) => setTimeout(r));
        }
        // Drawn: the frame after the lab's page is in the document.
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
        out.push(performance.now() - t0);
        // The next switch starts from a lab that has settled.
        while (!document.querySelector(ready)) await new Promise((r) => setTimeout(r, 20));
      }
      return out;
    },
    [a, b, n, READY],
  );
  await page.close();
  return median(times);
}

// One pattern switch on the risk page, from Chromium's own trace, as the
// main thread's CPU time (work other processes take on a shared machine is
// not counted): the task that handles the change, with its effects, and
// the next task that renders a frame; medians of `n` in ms.
async function patternSwitch(page, n) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories: "toplevel,devtools.timeline,blink.user_timing", transferMode: "ReportEvents" });
  await page.evaluate(async (n) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    for (let i = 0; i < n; i++) {
      await new Promise((r) => setTimeout(r, 60));
      const box = document.getElementById("f-cas");
      performance.mark(`switch-${i}`);
      box.checked = !box.checked;
      box.dispatchEvent(new Event("change", { bubbles: true }));
      await frame();
      await frame();
      await new Promise((r) => setTimeout(r, 150));
    }
  }, n);
  await cdp.send("Tracing.end");
  await complete;
  await cdp.detach();
  const mark = (name) => events.find((e) => e.name === name);
  const { pid, tid } = mark("switch-0");
  const taskName = events.some((e) => e.name === "ThreadControllerImpl::RunTask") ? "ThreadControllerImpl::RunTask" : "RunTask";
  const tasks = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.name === taskName).sort((a, b) => a.ts - b.ts);
  const framed = events.filter((e) => e.pid === pid && e.tid === tid && (e.name === "PrePaint" || e.name === "FireAnimationFrame")).map((e) => e.ts);
  const isFrame = (task) => framed.some((ts) => ts >= task.ts && ts <= task.ts + task.dur);
  const out = [];
  for (let i = 0; i < n; i++) {
    const from = mark(`switch-${i}`).ts;
    const script = tasks.find((t) => t.ts <= from && from <= t.ts + t.dur);
    const frameTask = tasks.find((t) => t.ts > script.ts + script.dur && isFrame(t));
    out.push(((script.tdur ?? script.dur) + (frameTask.tdur ?? frameTask.dur)) / 1000);
  }
  return median(out);
}

try {
  // What each lab's page downloads, opened by a link, and on the phone.
  // Its worker's files apart: they are fetched once the page is up.
  const ready = (p) => p.waitForSelector(READY, { timeout: 60_000 });
  for (const [name, path] of [...labs.map((lab) => [`${lab} page`, pageOf(lab)]), ["embed (?embed=1)", "/?embed=1"]]) {
    const got = await downloads(path, ready);
    const worker = got.filter((d) => d.file.includes("worker"));
    const own = got.filter((d) => !worker.includes(d));
    row(`${name}: downloads`, `${fmtSent(own)}, ${against(sizes(own.map((d) => d.file)))}`);
    if (worker.length) row(`${name}: then its worker, once the page is up`, fmtSent(worker));
    row(`${name}: files`, got.map((d) => d.file).join(", "));
  }
  const wasm = [];
  const walk = (dir) =>
    readdirSync(dist + dir).forEach((f) => (statSync(dist + dir + f).isDirectory() ? walk(`${dir}${f}/`) : f.endsWith(".wasm") && wasm.push(dir + f)));
  walk("");
  row("every lab: WebAssembly shipped in all", `${fmt(sizes(wasm))} in ${wasm.length} files`);
  const offline = JSON.parse(readFileSync(`${dist}sw.js`, "utf8").match(/^const FILES = (\[.*\]);$/m)[1]).filter((f) => !f.endsWith("/"));
  row("the offline copy of every lab, stored in the background after the first visit", `${fmt(sizes(offline))} in ${offline.length} files`);
  const host = await downloads("/examples/element.html", (p) => p.locator("idempotency-lab").first().waitFor());
  row("custom element on a host page: downloads", fmtSent(host.filter((d) => !d.file.startsWith("examples/"))));
  for (const lab of labs) {
    const t = await onPhone(pageOf(lab), lab, 3);
    if (t.diagram !== null) row(`${lab} page on the phone profile: diagram (the storm lab: its charts) on screen (median of 3)`, ms(t.diagram));
    row(`${lab} page on the phone profile: usable (median of 3)`, ms(t.usable));
    row(`${lab} page on the phone profile: where the time went (medians)`, t.where);
  }
  {
    const t = await onPhone("/?embed=1", labs[0], 3);
    row("embed (?embed=1) on the phone profile: diagram on screen (median of 3)", ms(t.diagram));
    row("embed (?embed=1) on the phone profile: usable (median of 3)", ms(t.usable));
    row("embed (?embed=1) on the phone profile: where the time went (medians)", t.where);
  }
  for (const [a, b] of labs.slice(1).map((other) => [labs[0], other])) {
    row(`Lab switch ${a} <-> ${b}, bundles fetched: to the next lab drawn (median of 10)`, ms(await labSwitch(a, b, 10)));
  }

  // Desktop: the first complete render, a settings change, the risk page.
  const loads = [];
  for (let i = 0; i < 10; i++) {
    const page = await browser.newPage({ serviceWorkers: "block" });
    await page.goto(`${origin}/`);
    const t = await page.waitForFunction(() => performance.getEntriesByName("idempotency-lab:rendered")[0]?.startTime);
    loads.push(await t.jsonValue());
    await page.close();
  }
  row("ack page, desktop: navigation to first complete render (median of 10)", ms(median(loads)));
  const page = await browser.newPage({ serviceWorkers: "block" });
  // The strip's figures are those at the playhead; its end line says how
  // the run ends, which deduplication changes.
  await page.goto(`${origin}/`);
  await page.waitForSelector(".mirror-text");
  const times = await page.evaluate(async () => {
    const box = document.getElementById("f-dedup");
    const counter = document.querySelector(".results .end-line");
    const out = [];
    for (let i = 0; i < 20; i++) {
      const before = counter.textContent;
      const t0 = performance.now();
      box.checked = !box.checked;
      box.dispatchEvent(new Event("change", { bubbles: true }));
      while (counter.textContent === before && performance.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 0));
      if (counter.textContent === before) throw new Error("the counter did not change");
      out.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
    }
    return out;
  });
  row("ack page: change a setting to updated DOM (median of 20)", `${median(times).toFixed(1)} ms`);
  await page.goto(`${origin}/?lab=risk&preset=not-found-resend&mode=patterns&at=6`);
  await page.waitForSelector(READY);
  row("risk page: switch a pattern, one frame's main-thread work (median of 40)", `${(await patternSwitch(page, 40)).toFixed(1)} ms`);

  // wide-fleet in the browser: switching the global gate back on reruns the
  // 1 280-call burst with the gate (its events counted by the native bench
  // below) and redraws; from the click to the checks saying so.
  await page.goto(`${origin}/?lab=risk&preset=wide-fleet&mode=patterns&at=30`);
  await page.waitForSelector(READY);
  const fleet = await page.evaluate(async () => {
    const box = document.getElementById("f-ggate");
    const item = () => [...document.querySelectorAll(".risk .check-list li")].find((li) => li.textContent.includes("downstream_within_capacity"));
    const settle = async (want) => {
      while (!item().textContent.includes(want)) await new Promise((r) => setTimeout(r, 2));
    };
    const out = [];
    for (let i = 0; i < 5; i++) {
      box.click();
      await settle("at most 1280 at once");
      const t0 = performance.now();
      box.click();
      await settle("at most 98 at once");
      out.push(performance.now() - t0);
    }
    return out;
  });
  wideFleetBrowserMs = median(fleet);
  row("risk page: wide-fleet rerun with the global gate, click to checks (median of 5)", ms(wideFleetBrowserMs));

  // The storm page: a 10 000-client run and the AWS sweep, in the worker.
  const stormPage = await browser.newPage({ serviceWorkers: "block" });
  const totals = stormPage.getByRole("region", { name: "Totals" });
  let t0 = Date.now();
  await stormPage.goto(`${origin}/?lab=storms&clients=10000`);
  await totals.getByText("Intents", { exact: true }).waitFor({ timeout: 120_000 });
  row("storms page: open and run 10 000 clients in the browser", ms(Date.now() - t0));
  await stormPage.getByLabel("Clients", { exact: true }).fill("100");
  await stormPage.getByLabel("Workload").selectOption("occ");
  t0 = Date.now();
  await stormPage.getByRole("button", { name: "Run sweep" }).click();
  const longest = longestFrameWhile(stormPage, "progress");
  await stormPage.getByRole("img", { name: /^Work: write calls/ }).waitFor({ timeout: 300_000 });
  row("storms page: AWS sweep (95 cells x 100 runs) in the browser's worker", `${((Date.now() - t0) / 1000).toFixed(1)} s`);
  row("storms page: longest frame while the sweep ran", ms(await longest));

  // Explore every schedule, in the risk page's worker: the incident's whole
  // two-fault space, the first press fetching the worker;
  // then the overload burst's (each run 200 calls), and the page's answer
  // to a click while it explores.
  const explorePage = await browser.newPage({ serviceWorkers: "block" });
  await explorePage.goto(`${origin}/risk/?preset=incident&mode=patterns`);
  await explorePage.waitForSelector(READY);
  const panel = explorePage.getByRole("region", { name: "Explore every schedule" });
  const explore = async () => {
    const t = Date.now();
    await panel.getByRole("button", { name: "Explore" }).click();
    await panel.locator(".explore-lesson").waitFor({ timeout: 300_000 });
    return Date.now() - t;
  };
  const first = await explore();
  const again = [await explore(), await explore(), await explore()];
  const explored = Number((await panel.locator("table caption").textContent()).match(/^(\d+) schedules/)[1]);
  row(`risk page: explore the incident's ${explored} two-fault schedules in the worker, first press (worker fetched)`, ms(first));
  row(`risk page: explore the incident's ${explored} two-fault schedules in the worker, again (median of 3)`, ms(median(again)));
  row("risk page: schedules/s in the browser's worker (incident)", Math.round(explored / (median(again) / 1000)).toLocaleString("en-US"));
  await explorePage.goto(`${origin}/risk/?preset=overload&mode=patterns`);
  await explorePage.waitForSelector(READY);
  const t0x = Date.now();
  await panel.getByRole("button", { name: "Explore" }).click();
  const running = panel.getByRole("progressbar", { name: "Exploring" });
  await running.waitFor();
  // A real mouse click on a disclosure while the worker explores: from the
  // browser's input event to the next frame painted after its handler, and
  // the longest frame meanwhile (the page is as responsive as that).
  const summary = explorePage.locator("details summary").first();
  await summary.scrollIntoViewIfNeeded();
  const box = await summary.boundingBox();
  // The listener is in place before the click is sent.
  await explorePage.evaluate(() => {
    window.benchClick = null;
    document.addEventListener(
      "click",
      (e) => requestAnimationFrame(() => (window.benchClick = performance.now() - e.timeStamp)),
      { capture: true, once: true },
    );
  });
  const watch = longestFrameWhile(explorePage, 'progress[aria-label="Exploring"]');
  await explorePage.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const stillRunning = await running.isVisible();
  await panel.locator(".explore-lesson").waitFor({ timeout: 300_000 });
  const overloadMs = Date.now() - t0x;
  const seen = { worst: await watch, click: await explorePage.evaluate(() => window.benchClick) };
  row(
    `risk page: a click while the overload's two-fault schedules are explored, input to next frame${stillRunning ? "" : " (the exploration had ended)"}`,
    seen.click === null ? "not seen" : ms(seen.click),
  );
  row("risk page: longest frame while exploring the overload", ms(seen.worst));
  row("risk page: explore the overload's two-fault schedules in the worker", ms(overloadMs));

  // The native bench's 100 000-span trace opened on the first lab's page
  // by "Open a trace", on the desktop and on the phone profile's CPU.
  const tracePath = join(tmpdir(), `idempotency-lab-bench-trace-${process.pid}.json`);
  writeFileSync(tracePath, execFileSync(cli, ["bench", "--trace", "--write"], { maxBuffer: 512 << 20 }));
  try {
    for (const [profile, phone] of [["desktop", false], ["the phone profile (CPU 4x slower)", true]]) {
      const t = await traceOpened(tracePath, phone, 3);
      row(`first lab's page, ${profile}: a 100 000-span trace from choosing the file to its checks on screen (median of 3)`, ms(t.checks));
    }
  } finally {
    unlinkSync(tracePath);
  }
} finally {
  await browser.close();
  server.kill();
}

// The cores, natively, on one thread.
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
row("a 100 000-span trace natively", execFileSync(cli, ["bench", "--trace"], { encoding: "utf8" }).trim());
const risk = figures(["bench", "--lab", "risk"], () => true);
row(
  "wide-fleet patterns events/s in the browser (native events per run over the click-to-checks time)",
  Math.round(Number(risk["wide-fleet patterns events per run"]) / (wideFleetBrowserMs / 1000)).toLocaleString("en-US"),
);
const storm = figures(["bench", "--lab", "storms"], () => true);
// The same sweep by the Python port of the published simulator's rules.
const python = Number(
  execFileSync("python3", ["../scripts/aws_backoff_port.py", "--sweep", "--reps", "100", "--seed", "1", "--time-only"], { encoding: "utf8" }).trim(),
);
row("aws sweep seconds, Python port", python.toFixed(1));
row("aws sweep: native speed over the Python port (1 thread)", `${(python / Number(storm["aws sweep seconds (1 thread)"])).toFixed(0)}x`);
row("aws sweep: native speed over the Python port (2 threads)", `${(python / Number(storm["aws sweep seconds (2 threads)"])).toFixed(0)}x`);

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`| ${"figure".padEnd(width)} | value |`);
console.log(`| ${"-".repeat(width)} | ----- |`);
for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value} |`);
