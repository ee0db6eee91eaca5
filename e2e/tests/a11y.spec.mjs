// An automated accessibility scan with axe-core in the normal and the embed
// view, light and dark. Injecting axe needs an inline script, so this test
// alone lets the browser bypass the CSP (the others run under it).
import { test, expect, labStarted, open, seriousViolations, SIZES } from "./fixtures.mjs";


test.use({ bypassCSP: true });

for (const [view, query] of [
  ["normal", "dedup=off&at=4"],
  ["embed", "embed=1&at=2.05"],
  ["comparison", "b.dedup=off&fork=4&at=4&pin=2.05:Will%20it%20retry%3F"],
  ["presenter", "present=1&b.key=per-attempt&at=2.05&pin=2.05:Will%20it%20retry%3F"],
]) {
  for (const scheme of ["light", "dark"]) {
    test(`axe finds no serious or critical violations: ${view} view, ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, query);
      if (view === "normal") {
        // Include the states that only appear after interaction.
        await page.getByLabel("Timeout per attempt").fill("x");
        await page.getByRole("button", { name: "Retention zero" }).click();
        await page.getByRole("button", { name: "Copy link" }).click();
        // The explorer's results table.
        const explore = page.getByRole("region", { name: "Explore every schedule" });
        await explore.getByRole("button", { name: "Explore" }).click();
        await explore.locator("table").waitFor({ timeout: 30_000 });
      }
      if (view === "presenter") {
        // The checkpoint's question on screen.
        await page.getByRole("button", { name: "Previous event" }).click();
        await page.getByRole("button", { name: "Next event" }).click();
        await page.getByRole("region", { name: "Checkpoint at 2.05 s" }).waitFor();
      }
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

// Every lab at a phone's, a laptop's and a projector's size, and each in
// presenter mode on the projector; with the states a reader reaches there
// (an experiment's card and Try it's choice, a glossary opened, a preset's
// question in the totals).
const LABS = [
  { id: "ack", query: "", ready: ".mirror-text", reach: async (page) => page.getByRole("group", { name: "Change one setting of the opening run" }).getByLabel("Deduplication off").check() },
  { id: "risk", query: "lab=risk", ready: ".mirror-text", reach: async (page) => page.locator("details.words summary").click() },
  { id: "storms", query: "lab=storms", ready: ".totals .figure", reach: async (page) => page.getByRole("region", { name: "Presets" }).getByRole("button").first().click() },
];
for (const size of SIZES) {
  for (const lab of LABS) {
    test(`axe finds no serious or critical violations: the ${lab.id} lab at ${size.name}`, async ({ page }) => {
      await page.setViewportSize(size.viewport);
      await page.goto(`/?${lab.query}`);
      await labStarted(page);
      await page.locator(lab.ready).first().waitFor();
      await lab.reach(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}
for (const lab of LABS) {
  test(`axe finds no serious or critical violations: the ${lab.id} lab presenting at 1920 x 1080`, async ({ page }) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/?${lab.query}${lab.query ? "&" : ""}present=1`);
    await page.locator(".app.present .caption").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
