// The development loop's test (dev/): it starts `trunk serve` itself, so
// it needs no server of ours, and it builds, so it runs alone.
import base from "./playwright.config.mjs";

export default { ...base, testDir: "dev", webServer: undefined, workers: 1, fullyParallel: false, timeout: 15 * 60_000 };
