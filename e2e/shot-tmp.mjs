import { chromium } from "playwright";
import { readFileSync } from "node:fs";
const [file, out, w] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: Number(w || 400), height: 800 } });
await page.setContent(`<html><body style="margin:0">${readFileSync(file, "utf8")}</body></html>`);
await page.screenshot({ path: out, fullPage: true, timeout: 20000 });
await browser.close();
