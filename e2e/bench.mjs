// `make bench`: prints a table of figures. Nothing here passes or fails;
// the machines are shared and noisy, so figures are for comparison.
//
//   node bench.mjs   (from e2e/, after `trunk build --release`)
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { chromium } from "playwright-core";

const dist = new URL("../dist/", import.meta.url).pathname;
const rows = [];
const row = (name, value) => rows.push([name, value]);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// Bundle sizes.
const groups = { wasm: [".wasm"], js: [".js"], css: [".css"] };
const total = { raw: 0, gzip: 0, brotli: 0 };
for (const [name, exts] of Object.entries(groups)) {
  const files = readdirSync(dist).filter((f) => exts.some((e) => f.endsWith(e)));
  const size = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const bytes = readFileSync(dist + f);
    size.raw += bytes.length;
    size.gzip += gzipSync(bytes, { level: 9 }).length;
    size.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  for (const k of Object.keys(total)) total[k] += size[k];
  row(`bundle ${name} (raw / gzip / brotli)`, `${kb(size.raw)} / ${kb(size.gzip)} / ${kb(size.brotli)}`);
}
row("bundle total (raw / gzip / brotli)", `${kb(total.raw)} / ${kb(total.gzip)} / ${kb(total.brotli)}`);

// The core, natively, on one thread.
const cli = new URL("../target/release/idempotency-lab", import.meta.url).pathname;
const core = execFileSync(cli, ["bench", "--runs", "300000"], { encoding: "utf8" });
for (const line of core.trim().split("\n")) {
  const [name, value] = line.split("\t");
  if (name.startsWith("core")) row(name, Number(value).toLocaleString("en-US"));
}

// The page in headless Chromium.
const port = 8190;
const server = spawn("node", ["serve.mjs", "--root", dist, "--port", String(port)], { stdio: "ignore" });
await new Promise((r) => setTimeout(r, 500));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
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
} finally {
  await browser.close();
  server.kill();
}

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`| ${"figure".padEnd(width)} | value |`);
console.log(`| ${"-".repeat(width)} | ----- |`);
for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value} |`);
