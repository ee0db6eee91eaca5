// Open a trace: a committed trace recorded by a real instrumented program,
// chosen with the file picker, read in the page with no request, drawn with
// the duplicate effect ringed and judged; a broken file gets a notice and
// the lab stays.
import { readFileSync } from "node:fs";
import { test, expect, open, mirror } from "./fixtures.mjs";

const traces = new URL("../../tests/data/traces/", import.meta.url).pathname;

/** A lane's title: on screen, and where it is. */
async function expectTitle(title) {
  await expect(title).toBeVisible();
  return title.boundingBox();
}

test("a committed trace opens by the file picker, ringed and judged, with no request", async ({ page }) => {
  await open(page);
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.getByLabel("Open a trace").setInputFiles(`${traces}lost-response-no-key-no-dedup.json`);
  const panel = page.getByRole("region", { name: "Trace: lost-response-no-key-no-dedup.json" });
  await expect(panel).toBeVisible();
  // The retry inserted into the ledger again: committed twice, and a
  // success over two effects.
  const checks = panel.getByRole("list", { name: "Checks of the trace" });
  await expect(checks).toContainText("Committed at most once per intent: fails");
  await expect(checks).toContainText("The client's status agrees with the effects: fails");
  await expect(panel.getByRole("region", { name: "Where the trace broke" })).toContainText(
    "client lane",
  );
  await expect(panel.locator(".trace-diagram svg .broke-ring")).toHaveCount(1);
  await expect(panel.locator(".trace-diagram svg .span-effect")).toHaveCount(2);
  expect(requests, "reading a trace asks nothing of the network").toEqual([]);
  // Each lane is titled with its service, at the diagram's left edge, the
  // client's lane (its span starts first) above the server's.
  const diagram = panel.locator(".trace-diagram");
  const box = await diagram.boundingBox();
  const client = await expectTitle(diagram.getByText("client", { exact: true }));
  const server = await expectTitle(diagram.getByText("server", { exact: true }));
  for (const title of [client, server]) expect(title.x - box.x).toBeLessThan(100);
  expect(client.y).toBeLessThan(server.y);
  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.screenshot({ path: test.info().outputPath("trace-1280.png") });
  await page.setViewportSize({ width: 360, height: 740 });
  await panel.getByLabel("Sequence diagram").check();
  await expect(panel.locator(".trace-diagram svg .broke-ring")).toHaveCount(1);
  // Down the page, the titles head the columns, the client's left of the
  // server's.
  const clientColumn = await expectTitle(diagram.getByText("client", { exact: true }));
  const serverColumn = await expectTitle(diagram.getByText("server", { exact: true }));
  expect(clientColumn.x).toBeLessThan(serverColumn.x);
  await page.screenshot({ path: test.info().outputPath("trace-360.png"), fullPage: false });
});

test("a broken trace gets a notice naming the line and the lab stays", async ({ page }) => {
  await open(page, "dedup=off");
  const before = await mirror(page).textContent();
  const broken = readFileSync(`${traces}no-retry.json`, "utf8").replace('"kind": 3', '"kind": 9');
  await page.getByLabel("Open a trace").setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from(broken) });
  await expect(page.getByText(/broken\.json: line 1, resourceSpans\[\d\]\.scopeSpans\[0\]\.spans\[\d+\]\.kind: 9 is not a known value/)).toBeVisible();
  await expect(page.getByText("The lab on screen stays.", { exact: false })).toBeVisible();
  await expect(page.getByRole("region", { name: /^Trace:/ })).toHaveCount(0);
  await expect(mirror(page)).toHaveText(before);
});
