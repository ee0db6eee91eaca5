// The last step of `make dist`: writes a brotli copy (`<file>.br`) and a
// gzip copy (`<file>.gz`) beside every file of the build that compresses
// (the WebAssembly, scripts, styles, pages, SVG, JSON and the manifest), so
// a server sends the smallest copy a browser accepts without compressing
// anything itself. Images that are compressed already are left alone, and
// a copy that would not be smaller than its file is not written (the file
// then goes as it is). Runs after scripts/offline.mjs, so sw.js has its
// copies too; the service worker lists the files, not their copies (a
// browser asks for `ack_bg.wasm` and the server chooses the encoding).
// Usage: node scripts/compress.mjs dist
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { extname, join } from "node:path";

const dist = process.argv[2] ?? "dist";
const COMPRESSIBLE = new Set([".wasm", ".js", ".mjs", ".css", ".html", ".svg", ".json", ".webmanifest", ".txt", ".xml", ".map"]);
// The smallest each format makes (both are slow to write and as fast to
// read as any other level).
const COPIES = [
  [".br", (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })],
  [".gz", (bytes) => gzipSync(bytes, { level: 9 })],
];

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (COMPRESSIBLE.has(extname(name))) files.push(path);
  }
};
walk(dist);

let plain = 0;
const written = { ".br": 0, ".gz": 0 };
for (const file of files) {
  const bytes = readFileSync(file);
  plain += bytes.length;
  for (const [suffix, compress] of COPIES) {
    const copy = compress(bytes);
    // A copy left from an earlier build of a file that changed since must
    // not outlive it.
    rmSync(file + suffix, { force: true });
    if (copy.length < bytes.length) {
      writeFileSync(file + suffix, copy);
      written[suffix] += copy.length;
    }
  }
}
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(`compress: ${files.length} files, ${kB(plain)}; brotli copies ${kB(written[".br"])}, gzip copies ${kB(written[".gz"])}`);
