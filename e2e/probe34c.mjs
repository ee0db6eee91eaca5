import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
await page.goto("http://127.0.0.1:47841/");
await page.waitForTimeout(3000);
console.log(await page.evaluate(() => [".where-it-broke h2", ".timeline h2", ".timeline .hint", ".timeline-controls", ".hide-future-toggle", ".timeline-controls select"].map((s) => { const e = document.querySelector(s); const c = getComputedStyle(e); const r = e.getBoundingClientRect(); return `${s}: fs=${c.fontSize} m=${c.margin} lh=${c.lineHeight} y=${Math.round(r.top)} h=${Math.round(r.height)}`; })));
const first = await page.locator(".timeline:not(.timeline-b) svg.diagram path:not(.gridline):not(.leader):not(.arrowhead)").evaluateAll((marks) => Math.min(...marks.map((m) => m.getBoundingClientRect().top)));
console.log(first);
await browser.close();
