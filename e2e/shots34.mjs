// Screenshots for looking at the page (not a test).
import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:47841";
const host = "http://127.0.0.1:47842";
const out = process.argv[2] ?? "/tmp/shots34";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const labs = [["ack", ""], ["risk", "lab=risk"], ["storms", "lab=storms"]];
const sizes = [["phone", 360, 740, ""], ["laptop", 1280, 800, ""], ["present", 1920, 1080, "present=1"]];
for (const [id, q] of labs) {
  for (const [name, w, h, extra] of sizes) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    const query = [q, extra].filter(Boolean).join("&");
    await page.goto(`${base}/${query ? "?" + query : ""}`);
    await page.waitForTimeout(id === "storms" ? 6000 : 2500);
    await page.screenshot({ path: `${out}/${id}-${name}.png` });
    await page.close();
  }
  // The Embed dialog's iframe, in an 800 x 500 box.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/${q ? "?" + q : ""}`);
  await page.waitForTimeout(id === "storms" ? 6000 : 2500);
  const toggle = page.getByRole("button", { name: "Share and files" });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole("button", { name: "Embed", exact: true }).first().click();
  const iframe = await page.getByLabel("Embed as an iframe").inputValue();
  const docs = await browser.newPage({ viewport: { width: 900, height: 600 } });
  await docs.goto(`${host}/snippet?html=${encodeURIComponent(iframe)}`);
  await docs.waitForTimeout(id === "storms" ? 7000 : 3500);
  await docs.screenshot({ path: `${out}/${id}-embed.png` });
  await docs.close();
  await page.close();
}
await browser.close();
