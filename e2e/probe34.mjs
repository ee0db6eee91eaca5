import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [w, h] of [[1280, 800], [360, 740]]) {
  for (const js of [false, true]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h }, javaScriptEnabled: js });
    const page = await ctx.newPage();
    await page.goto("http://127.0.0.1:47841/");
    await page.waitForTimeout(js ? 3000 : 500);
    const out = await page.evaluate(() => [...document.querySelectorAll(".panel, .results, .timeline, header, .masthead, .toolbar, main > *")].map((e) => `${e.tagName}.${[...e.classList].join(".")} y=${Math.round(e.getBoundingClientRect().top)} h=${Math.round(e.getBoundingClientRect().height)}`).filter((s) => !s.includes("h=0")).slice(0, 14));
    console.log(w, js ? "live" : "opening", "\n  " + out.join("\n  "));
    await ctx.close();
  }
}
await browser.close();
