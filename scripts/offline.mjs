// After every page of a build is in `dist`, writes dist/sw.js (from
// assets/sw.js) with the list of the build's files (each page's folder too, as links name it) and their
// fingerprint, so the service worker stores exactly this build and a new
// build is noticed as one. Usage: node scripts/offline.mjs dist
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const dist = process.argv[2] ?? "dist";
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(relative(dist, path).split("\\").join("/"));
  }
};
walk(dist);
// A file's brotli and gzip copies (scripts/compress.mjs) are the same file
// in another encoding, which the server chooses: they are not listed.
const copy = (f) => /\.(br|gz)$/.test(f) && files.includes(f.slice(0, -3));
const kept = files.filter((f) => f !== "sw.js" && !copy(f));
const hash = createHash("sha256");
for (const f of kept) hash.update(f).update(readFileSync(join(dist, f)));
const page = (f) => f === "index.html" || f.endsWith("/index.html");
const urls = kept.flatMap((f) => (page(f) ? [f.slice(0, -"index.html".length) || "./", f] : [f]));
// From the source (the build's copy is minified): the two lines to fill in
// are found by their text.
const template = new URL("../assets/sw.js", import.meta.url);
const sw = readFileSync(template, "utf8")
  .replace(/^const FILES = \[\];.*$/m, `const FILES = ${JSON.stringify(urls)};`)
  .replace(/^const VERSION = "dev";.*$/m, `const VERSION = "${hash.digest("hex").slice(0, 16)}";`);
if (!sw.includes(`const FILES = ${JSON.stringify(urls)}`)) throw new Error("sw.js has no list to fill in");
writeFileSync(join(dist, "sw.js"), sw);
console.log(`offline: ${urls.length} files in dist/sw.js`);
