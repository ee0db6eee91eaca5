// `make serve`'s server (serve.mjs) against hostile requests: a malformed
// escape is answered with 400 and the server goes on; no path reaches a
// file outside its root, not even a sibling folder whose name starts with
// the root's. It runs here on a folder of its own, with a secret beside it.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect } from "./fixtures.mjs";

/** Sends `path` as it is written (no client normalises it). */
function get(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("the dev server answers a malformed request with 400 and serves nothing outside its root", async () => {
  const dir = mkdtempSync(join(tmpdir(), "serve-"));
  mkdirSync(join(dir, "dist"));
  mkdirSync(join(dir, "dist-secret"));
  writeFileSync(join(dir, "dist", "index.html"), "<!doctype html><title>lab</title>");
  writeFileSync(join(dir, "dist-secret", "token.txt"), "the secret token");
  writeFileSync(join(dir, "secret.txt"), "the secret beside the root");
  const server = spawn("node", ["serve.mjs", "--root", join(dir, "dist"), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise((resolve) => {
      server.stdout.on("data", (chunk) => {
        const found = String(chunk).match(/app on http:\/\/127\.0\.0\.1:(\d+)\//);
        if (found) resolve(Number(found[1]));
      });
    });
    expect(await get(port, "/%E0%A4%A")).toEqual({ status: 400, body: "bad request" });
    expect((await get(port, "/..%2fdist-secret%2ftoken.txt")).status).toBe(403);
    for (const path of ["/..%2fdist-secret%2ftoken.txt", "/..%2f..%2fsecret.txt", "/..%2Fsecret.txt", "/%2e%2e/secret.txt", "/../secret.txt"]) {
      const answer = await get(port, path);
      expect([403, 404], path).toContain(answer.status);
      expect(answer.body, path).not.toContain("secret");
    }
    // The server still answers, and serves what is inside its root.
    const home = await get(port, "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("<title>lab</title>");
    expect((await get(port, "/missing.js")).status).toBe(404);
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
