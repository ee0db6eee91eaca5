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

const port = 8192;
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
    // for a lab that draws one: a lab ready with none has none.
    const drawn = await page.waitForFunction(
      (ready) => {
        const marks = [...document.querySelectorAll("svg.diagram path")].some(
          (p) => !p.closest("defs") && p.getBoundingClientRect().width > 0 && p.checkVisibility({ visibilityProperty: true }),
        );
        if (marks) return performance.now();
        return document.querySelector(ready) && !document.querySelector("svg.diagram") ? -1 : false;
      },
      READY,
      { timeout: 60_000, polling: "raf" },
    );
    const at = await drawn.jsonValue();
    console.log(JSON.stringify(await page.evaluate(() => ({ dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd, res: performance.getEntriesByType("resource").filter((e) => /opening|risk.css|first-paint|boot|\.css/.test(e.name)).map((e) => [e.name.split("/").slice(-2).join("/"), Math.round(e.startTime), Math.round(e.responseEnd)]) }))));
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
  for (const [path, lab] of (process.env.PAGES ?? "/?lab=risk risk").split(",").map((p) => p.split(" "))) {
    const t = await onPhone(path, lab, Number(process.env.N ?? 5));
    if (t.diagram !== null) row(`${path} diagram`, ms(t.diagram));
    row(`${path} usable`, ms(t.usable));
    row(`${path} where`, t.where);
  }
} finally {
  await browser.close();
  server.kill();
}


for (const [name, value] of rows) console.log(`${name}\t${value}`);
