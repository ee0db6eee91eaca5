// `make serve`'s server (serve.mjs) against hostile requests: a malformed
// escape is answered with 400 and the server goes on; no path reaches a
// file outside its root, not even a sibling folder whose name starts with
// the root's. It runs here on a folder of its own, with a secret beside it.
// Then the build's brotli and gzip copies (scripts/compress.mjs): each file
// goes in the encoding the client accepts, and decodes to the built file.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { test, expect, port as appPort } from "./fixtures.mjs";

// The served build, as serve.mjs is given it (relative to e2e/).
const dist = new URL(`${(process.env.E2E_ROOT ?? "../dist").replace(/\/$/, "")}/`, new URL("../", import.meta.url));
const built = (file) => readFileSync(new URL(file, dist));

/** Sends `path` as it is written (no client normalises it), with
 * `headers`; the body as the server sent it, undecoded. */
function get(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode, headers: res.headers, bytes, body: bytes.toString() });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** serve.mjs on `root`, at a free port; `stop` ends it. */
async function serve(root) {
  const server = spawn("node", ["serve.mjs", "--root", root, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve) => {
    server.stdout.on("data", (chunk) => {
      const found = String(chunk).match(/app on http:\/\/127\.0\.0\.1:(\d+)\//);
      if (found) resolve(Number(found[1]));
    });
  });
  return { port, stop: () => server.kill() };
}

test("the dev server answers a malformed request with 400 and serves nothing outside its root", async () => {
  const dir = mkdtempSync(join(tmpdir(), "serve-"));
  mkdirSync(join(dir, "dist"));
  mkdirSync(join(dir, "dist-secret"));
  writeFileSync(join(dir, "dist", "index.html"), "<!doctype html><title>lab</title>");
  writeFileSync(join(dir, "dist-secret", "token.txt"), "the secret token");
  writeFileSync(join(dir, "secret.txt"), "the secret beside the root");
  const { port, stop } = await serve(join(dir, "dist"));
  try {
    const malformed = await get(port, "/%E0%A4%A");
    expect([malformed.status, malformed.body]).toEqual([400, "bad request"]);
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
    stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the WebAssembly and the page arrive brotli-encoded in Chromium and decode to the built files", async ({ page }) => {
  const answers = new Map();
  page.on("response", (r) => answers.set(new URL(r.url()).pathname, r));
  await page.goto("/");
  await page.locator(".lab-root[data-ready]").waitFor();
  for (const [path, file, type] of [
    ["/", "index.html", "text/html; charset=utf-8"],
    ["/ack/ack_bg.wasm", "ack/ack_bg.wasm", "application/wasm"],
  ]) {
    const answer = answers.get(path);
    const headers = answer.headers();
    expect(headers["content-encoding"], path).toBe("br");
    expect(headers["vary"], path).toBe("Accept-Encoding");
    expect(headers["content-type"], path).toBe(type);
    // What crossed the wire is the brotli copy, and what the page got is the file.
    const copy = built(`${file}.br`);
    expect(Number(headers["content-length"]), path).toBe(copy.length);
    expect((await answer.request().sizes()).responseBodySize, path).toBe(copy.length);
    expect(brotliDecompressSync(copy).equals(built(file)), path).toBe(true);
    expect((await answer.body()).equals(built(file)), path).toBe(true);
  }
});

// A page, a lab's WebAssembly and a lab's script: the path, the built file
// and its type.
const SAMPLES = [
  ["/", "index.html", "text/html; charset=utf-8"],
  ["/ack/ack_bg.wasm", "ack/ack_bg.wasm", "application/wasm"],
  ["/risk/risk.js", "risk/risk.js", "text/javascript; charset=utf-8"],
];

test("a client that accepts gzip but not brotli gets the gzip copy", async () => {
  for (const [path, file, type] of SAMPLES) {
    const plain = built(file);
    for (const acceptEncoding of ["gzip, deflate", "br;q=0, gzip", "GZIP"]) {
      const answer = await get(appPort, path, { "Accept-Encoding": acceptEncoding });
      expect([answer.status, answer.headers["content-encoding"]], `${path} ${acceptEncoding}`).toEqual([200, "gzip"]);
      expect(answer.headers["content-type"]).toBe(type);
      expect(answer.headers["vary"]).toBe("Accept-Encoding");
      expect(Number(answer.headers["content-length"])).toBe(answer.bytes.length);
      // The gzip copy is smaller than the file, and is the file.
      expect(answer.bytes.length).toBeLessThan(plain.length);
      expect(gunzipSync(answer.bytes).equals(plain), `${path} ${acceptEncoding}`).toBe(true);
    }
  }
});

test("a client that accepts neither brotli nor gzip gets the file itself", async () => {
  for (const [path, file, type] of SAMPLES) {
    const plain = built(file);
    for (const headers of [{}, { "Accept-Encoding": "identity" }, { "Accept-Encoding": "br;q=0, gzip;q=0" }, { "Accept-Encoding": "zstd" }]) {
      const answer = await get(appPort, path, headers);
      const what = `${path} ${JSON.stringify(headers)}`;
      expect([answer.status, answer.headers["content-encoding"]], what).toEqual([200, undefined]);
      expect(answer.headers["content-type"], what).toBe(type);
      // A cache in between must not give this answer to a client that asked for brotli.
      expect(answer.headers["vary"], what).toBe("Accept-Encoding");
      expect(Number(answer.headers["content-length"]), what).toBe(plain.length);
      expect(answer.bytes.equals(plain), what).toBe(true);
    }
  }
});

test("the build has a brotli and a gzip copy beside every file that compresses, and the offline list names neither", async () => {
  const files = [];
  const walk = (dir) =>
    readdirSync(new URL(dir, dist)).forEach((name) =>
      statSync(new URL(dir + name, dist)).isDirectory() ? walk(`${dir}${name}/`) : files.push(dir + name),
    );
  walk("");
  // Every type the build ships is one that compresses; the files of a
  // kilobyte and more all shrink (a few tiny ones might not, and go plain).
  const originals = files.filter((f) => !/\.(br|gz)$/.test(f));
  expect(originals.filter((f) => !/\.(wasm|js|css|html|svg|json|webmanifest)$/.test(f))).toEqual([]);
  for (const file of originals.filter((f) => built(f).length >= 1000)) {
    expect(files, file).toContain(`${file}.br`);
    expect(files, file).toContain(`${file}.gz`);
  }
  for (const file of originals) {
    if (files.includes(`${file}.br`)) expect(brotliDecompressSync(built(`${file}.br`)).equals(built(file)), file).toBe(true);
    if (files.includes(`${file}.gz`)) expect(gunzipSync(built(`${file}.gz`)).equals(built(file)), file).toBe(true);
  }
  const offline = JSON.parse(built("sw.js").toString().match(/^const FILES = (\[.*\]);$/m)[1]);
  expect(offline).toContain("ack/ack_bg.wasm");
  expect(offline.filter((f) => /\.(br|gz)$/.test(f))).toEqual([]);
});

test("a copy older than its file is not sent: the file, changed since the build, goes as it is", async () => {
  const dir = mkdtempSync(join(tmpdir(), "serve-"));
  // The page's copies were made from an earlier version of it.
  writeFileSync(join(dir, "page.js"), "export const version = 1;");
  writeFileSync(join(dir, "page.js.br"), "an earlier version, compressed");
  writeFileSync(join(dir, "page.js.gz"), "an earlier version, compressed");
  const earlier = new Date(Date.now() - 60_000);
  utimesSync(join(dir, "page.js.br"), earlier, earlier);
  utimesSync(join(dir, "page.js.gz"), earlier, earlier);
  const { port, stop } = await serve(dir);
  try {
    const answer = await get(port, "/page.js", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body).toBe("export const version = 1;");
  } finally {
    stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
