// A docs author's side: the Embed dialog of every lab offers an iframe
// and the custom element, each for an 800 x 500 box; pasted into a docs
// page on another origin (under a strict CSP), each shows the whole
// diagram, playback and the results inside that box, a link to the full
// lab, and nothing of the run's end before the end.
import { test, expect, hostOrigin, labStarted, SIZES, toolbarButton } from "./fixtures.mjs";

const LABS = [
  { id: "ack", query: "dedup=off", ready: ".mirror-text" },
  { id: "risk", query: "lab=risk", ready: ".mirror-text" },
  { id: "storms", query: "lab=storms", ready: ".totals .figure" },
];

/** What the Embed dialog offers, by title. */
async function snippets(page) {
  await (await toolbarButton(page, "Embed")).click();
  const iframe = page.getByLabel("Embed as an iframe");
  const element = page.getByLabel("Embed as a custom element");
  await expect(iframe).toHaveValue(/<iframe /);
  return { iframe: await iframe.inputValue(), element: await element.inputValue() };
}

/** Whether every one of `parts` (boxes) lies inside `frame`. */
function inside(frame, parts) {
  return parts.every((p) => p && p.x >= frame.x - 1 && p.y >= frame.y - 1 && p.x + p.width <= frame.x + frame.width + 1 && p.y + p.height <= frame.y + frame.height + 1);
}

for (const size of SIZES) {
  for (const lab of LABS) {
    test(`at ${size.name}, the ${lab.id} lab's Embed dialog offers an iframe and the element, each fitting 800 x 500 whole`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile ?? false });
      const page = await context.newPage();
      await page.goto(`/?${lab.query}`);
      await labStarted(page);
      await page.locator(lab.ready).first().waitFor();
      const { iframe, element } = await snippets(page);
      expect(iframe).toContain('width="800" height="500"');
      expect(element).toContain('width="800" height="500"');
      expect(element).toContain(`lab="${lab.id}"`);

      // The iframe, pasted into a docs page.
      const docs = await context.newPage();
      await docs.goto(`${hostOrigin}/snippet?html=${encodeURIComponent(iframe)}`);
      // The frame's own window, inside its border.
      const outer = await docs.locator("iframe").boundingBox();
      const inset = await docs.locator("iframe").evaluate((f) => [f.clientLeft, f.clientTop, f.clientWidth, f.clientHeight]);
      expect(inset.slice(2)).toEqual([800, 500]);
      const frameBox = { x: outer.x + inset[0], y: outer.y + inset[1], width: inset[2], height: inset[3] };
      const inner = docs.frameLocator("iframe");
      const diagram = lab.id === "storms" ? inner.locator(".line-chart svg.chart-svg").first() : inner.locator(".timeline svg.diagram").first();
      const results = lab.id === "storms" ? inner.locator(".totals .figures") : inner.getByRole("region", { name: "At the playhead" });
      await expect(diagram).toBeVisible();
      // The live lab, not the opening run written into the page before it.
      await expect(inner.locator(".prerendered, .lab-loading")).toHaveCount(0);
      await expect(results).toBeVisible();
      // Measured until the drawing has fitted itself to the room it found.
      const parts = async () => {
        const got = [await diagram.boundingBox(), await results.boundingBox()];
        if (lab.id !== "storms") got.push(await inner.locator(".playback").boundingBox());
        got.push(await inner.getByRole("link", { name: "Open in Idempotency Lab" }).boundingBox());
        return inside(frameBox, got);
      };
      await expect.poll(parts, { message: `${lab.id}: diagram, playback, results and the link inside the frame` }).toBe(true);
      if (lab.id === "ack") {
        // Before the end, no word of how it ends.
        await expect(inner.locator(".end-line")).toHaveCount(0);
        await inner.getByRole("slider", { name: "Time" }).press("End");
        await expect(inner.locator(".end-line")).toContainText("At the end of the run (6.05 s): 2 increments");
      }
      await docs.close();

      // The element, pasted into a docs page on another origin. (The storm
      // lab's worker must come from the page's own origin, so its element
      // is written into a page of the lab's origin instead.)
      const docs2 = await context.newPage();
      if (lab.id === "storms") {
        await docs2.goto("/examples/element.html");
        await docs2.evaluate((html) => {
          // A column as wide as the box the snippet is for, as on the
          // other labs' docs page.
          const main = document.querySelector("main");
          main.style.width = "800px";
          main.innerHTML = html.replace(/<script[^>]*><\/script>\n?/, "");
        }, element);
      } else {
        await docs2.goto(`${hostOrigin}/snippet?html=${encodeURIComponent(element)}`);
      }
      const el = docs2.locator(`idempotency-lab[lab="${lab.id}"]`);
      const shadowDiagram = lab.id === "storms" ? el.locator(".line-chart svg.chart-svg").first() : el.locator(".timeline svg.diagram").first();
      // Measured once the element has started (its lab drawn).
      await expect(shadowDiagram).toBeVisible();
      const elBox = await el.boundingBox();
      expect([Math.round(elBox.width), Math.round(elBox.height)]).toEqual([802, 502]);
      const shadowResults = lab.id === "storms" ? el.locator(".totals .figures") : el.getByRole("region", { name: "At the playhead" });
      await expect(shadowResults).toBeVisible();
      const elParts = async () => {
        const got = [await shadowDiagram.boundingBox(), await shadowResults.boundingBox()];
        if (lab.id !== "storms") got.push(await el.locator(".playback").boundingBox());
        return inside(elBox, got);
      };
      await expect.poll(elParts, { message: `${lab.id}: the element's diagram, playback and results inside its box` }).toBe(true);
      // Nothing of it spills out of the box its page gave it.
      expect(await el.evaluate((e) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
      await context.close();
    });
  }
}
