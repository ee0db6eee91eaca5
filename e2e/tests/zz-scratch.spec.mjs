import { test, expect } from "./fixtures.mjs";
test(`trace`, async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories: "devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,blink.user_timing,v8.wasm", transferMode: "ReportEvents" });
  await page.goto("/");
  await page.waitForFunction(() => performance.getEntriesByName("idempotency-lab:rendered").length > 0);
  await page.waitForTimeout(300);
  await cdp.send("Tracing.end");
  await complete;
  // main renderer thread: the one with most events named "ParseHTML"
  const byThread = new Map();
  for (const e of events) if (e.name === "ParseHTML") byThread.set(`${e.pid}:${e.tid}`, 1);
  const main = [...byThread.keys()][0];
  const top = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === "X" && e.dur > 2000);
  const t0 = Math.min(...top.map((e) => e.ts));
  for (const e of top.sort((a, b) => a.ts - b.ts)) console.log(((e.ts - t0) / 1000).toFixed(1), (e.dur / 1000).toFixed(1), e.name, e.args?.data?.url?.replace(/^.*47801\//, "") ?? e.args?.data?.functionName ?? "");
  const wasm = events.filter((e) => e.name.includes("wasm") || e.cat.includes("wasm"));
  const names = new Map(); for (const e of wasm) names.set(e.name, (names.get(e.name) ?? 0) + (e.dur ?? 0));
  console.log([...names].map(([n, d]) => `${n} ${(d/1000).toFixed(1)}`).join("\n"));
});
