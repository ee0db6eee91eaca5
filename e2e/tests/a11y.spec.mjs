// An automated accessibility scan with axe-core in the normal and the embed
// view, light and dark. Injecting axe needs an inline script, so this test
// alone lets the browser bypass the CSP (the others run under it).
import { test, expect, open, seriousViolations } from "./fixtures.mjs";


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
