import { chromium } from "@playwright/test";
import fs from "node:fs";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [w, h, mobile] of [[1280, 800, false], [360, 740, true]]) {
  const context = await browser.newContext({ viewport: { width: w, height: h }, isMobile: mobile, hasTouch: mobile });
  const page = await context.newPage();
  await page.goto("http://127.0.0.1:47841/?lab=storms");
  await page.waitForSelector(".lab-root[data-ready]");
  await page.getByRole("region", { name: "Totals" }).getByText("Intents", { exact: true }).waitFor();
  await page.waitForTimeout(1500);
  const html = await page.evaluate(() => document.querySelector(".lab-root").outerHTML.replace(/<!---->/g, ""));
  fs.writeFileSync(`/tmp/storm-live-${w}.html`, html);
  const boxes = await page.evaluate(() => [...document.querySelectorAll(".stage > *, .workspace > *, .storm-charts > *")].map((e) => [e.tagName, e.className, e.id, Math.round(e.getBoundingClientRect().x), Math.round(e.getBoundingClientRect().y), Math.round(e.getBoundingClientRect().width), Math.round(e.getBoundingClientRect().height)].join(" ")));
  console.log(w, boxes.join("\n"));
  await context.close();
}
await browser.close();
