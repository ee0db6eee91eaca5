// End-to-end tests: the release bundle (../dist) served with the strict
// Content-Security-Policy, driven in Debian's Chromium. Nothing downloads a
// browser: the executable path is fixed.
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 47801);

export default defineConfig({
  testDir: "tests",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    viewport: { width: 1280, height: 900 },
    // The offline copy is tested on its own (offline.spec.mjs); elsewhere
    // it would answer requests a test routes or counts.
    serviceWorkers: "block",
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: `node serve.mjs --root ${process.env.E2E_ROOT ?? "../dist"} --port ${port} --host-port ${port + 1}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    stdout: "ignore",
  },
});
