// A static file server for the built page, sending the strict
// Content-Security-Policy the page must work under. With --host-port it
// also serves, on a second origin, a host page that embeds the app in an
// iframe, as a documentation site would.
//
//   node serve.mjs --root ../dist --port 8090 [--host-port 8091]
//
// A file with a brotli or gzip copy beside it (`make dist` writes them,
// scripts/compress.mjs) goes as the copy the client accepts, brotli first,
// as a production server sends them (`make bench` measures the phone
// profile's download times so); a copy older than its file is never sent.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => {
    if (arg.startsWith("--")) pairs.push([arg.slice(2), all[i + 1]]);
    return pairs;
  }, []),
);
const root = resolve(args.root ?? "../dist");
const port = Number(args.port ?? 8090);
const hostPort = args["host-port"] ? Number(args["host-port"]) : null;

// The encodings a request's Accept-Encoding allows, by name: each listed
// coding with a q-value above 0 (a coding with q=0 is refused; `*` stands
// for any coding not named). Names are case-insensitive.
function accepted(header) {
  const q = new Map();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const weight = params.map((p) => p.trim().match(/^q=([0-9.]+)$/)).find(Boolean);
    q.set(name, weight ? Number(weight[1]) : 1);
  }
  const allows = (coding) => (q.has(coding) ? q.get(coding) > 0 : (q.get("*") ?? 0) > 0);
  return ["br", "gzip"].filter(allows);
}

// The copies a server can send in place of a file, with their names.
const COPIES = { br: ".br", gzip: ".gz" };

// `file`'s copy in the first of `encodings` that has one no older than the
// file: [encoding, bytes], or null.
async function copyOf(file, encodings, modified) {
  for (const encoding of encodings) {
    try {
      const copy = file + COPIES[encoding];
      const s = await stat(copy);
      if (s.isFile() && s.mtimeMs >= modified) return [encoding, await readFile(copy)];
    } catch {
      // No copy in this encoding.
    }
  }
  return null;
}

export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
};

// The same files are also served under a sub-path, as a docs site would
// host the app (say at /docs/retries/lab/).
const SUB_PATH = "/docs/retries/lab/";

// A path's file under `root`, or null for a path that would leave it: the
// root itself, or a name inside it (a sibling folder whose name starts
// with the root's, `dist-secret` beside `dist`, is outside).
function inRoot(path) {
  const file = resolve(root, "." + path);
  return file === root || file.startsWith(root + sep) ? file : null;
}

const app = createServer(async (req, res) => {
  let path;
  try {
    path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  } catch {
    // A malformed escape (`/%E0%A4%A`) or address: the request is refused,
    // and the server goes on.
    res.writeHead(400, { "Content-Type": "text/plain" }).end("bad request");
    return;
  }
  if (path.startsWith(SUB_PATH)) path = "/" + path.slice(SUB_PATH.length);
  else if (path.startsWith("/docs/")) {
    // Anything else under /docs/ does not exist: a root-relative asset
    // address from a sub-path page would land here and fail loudly.
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    return;
  }
  let file = inRoot(path);
  if (file === null || path.includes("\0")) {
    res.writeHead(403, { "Content-Type": "text/plain" }).end("forbidden");
    return;
  }
  try {
    if ((await stat(file)).isDirectory()) file = join(file, "index.html");
    const modified = (await stat(file)).mtimeMs;
    let body = await readFile(file);
    const headers = {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Security-Policy": CSP,
      "Cache-Control": "no-store",
      // The custom element's module, wasm and styles may be loaded by a
      // page on another origin (README: "Custom element").
      "Access-Control-Allow-Origin": "*",
      // Whichever copy goes, a cache between must ask again for a client
      // that accepts other encodings.
      Vary: "Accept-Encoding",
    };
    const copy = await copyOf(file, accepted(req.headers["accept-encoding"]), modified);
    if (copy) {
      headers["Content-Encoding"] = copy[0];
      body = copy[1];
    }
    headers["Content-Length"] = body.length;
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
  }
});
// Port 0 takes any free port; the address printed is the one taken.
app.listen(port, "127.0.0.1", () => console.log(`app on http://127.0.0.1:${app.address().port}/`));

if (hostPort) {
  // "localhost" and "127.0.0.1" are different origins: the iframe is cross-origin.
  const host = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/element-look") {
      // The elements' own look: one restyled by its attributes, one by the
      // host page's CSS custom properties (the host allows its own inline
      // style; the lab's styles stay inside each shadow root).
      const app = `http://127.0.0.1:${port}`;
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retry guide</title>
<style>idempotency-lab.branded { --il-accent: #117733; }</style>
<script type="module" src="${app}/idempotency-lab-element.js"></script></head>
<body><h1>Retry guide</h1>
<idempotency-lab theme="dark" accent="a30" font="mono" compact></idempotency-lab>
<idempotency-lab class="branded" compact></idempotency-lab></body></html>`;
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": `default-src 'self'; script-src ${app} 'wasm-unsafe-eval'; style-src ${app} 'unsafe-inline'; connect-src ${app}`,
      });
      res.end(page);
      return;
    }
    if (url.pathname === "/element-lesson") {
      // An element teaching a lesson of its own, on a page with a query
      // and a fragment of its own, which the lesson must leave alone.
      const app = `http://127.0.0.1:${port}`;
      const lesson = ["Lesson: Three runs", "Step: One", "Settings: dedup=off", "At: 6.05", "Step: Two", "Settings: retention=0", "At: 6.05", "Step: Three", "At: 4.05"].join("&#10;");
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retry guide</title>
<script type="module" src="${app}/idempotency-lab-element.js"></script></head>
<body><h1>Retry guide</h1>
<idempotency-lab lesson="${lesson}"></idempotency-lab></body></html>`;
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": `default-src 'self'; script-src ${app} 'wasm-unsafe-eval'; style-src ${app}; connect-src ${app}; worker-src ${app}`,
      });
      res.end(page);
      return;
    }
    if (url.pathname === "/element") {
      // Two custom elements loaded across origins under a strict CSP; the
      // first has bad attributes.
      const app = `http://127.0.0.1:${port}`;
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retry guide</title>
<script type="module" src="${app}/idempotency-lab-element.js"></script></head>
<body><h1>Retry guide</h1>
<idempotency-lab dedup="maybe" at="soon" compact></idempotency-lab>
<idempotency-lab dedup="off" compact></idempotency-lab></body></html>`;
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": `default-src 'self'; script-src ${app} 'wasm-unsafe-eval'; style-src ${app}; connect-src ${app}`,
      });
      res.end(page);
      return;
    }
    if (url.pathname === "/snippet") {
      // A docs page with what the Embed dialog gave pasted into it (`html`)
      // under a strict CSP that lets in the lab's origin alone; `box` puts
      // the snippet in a box of that many pixels (`800x500`).
      const app = `http://127.0.0.1:${port}`;
      const [w, h] = (url.searchParams.get("box") ?? "").split("x").map(Number);
      const box = w && h ? `<style>.box { width: ${w}px; height: ${h}px; } .box > idempotency-lab { height: 100%; margin: 0; }</style>` : "";
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retry guide</title>${box}</head>
<body><h1>Retry guide</h1><div class="box">${url.searchParams.get("html") ?? ""}</div></body></html>`;
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": `default-src 'self'; script-src ${app} 'wasm-unsafe-eval'; style-src ${app} 'unsafe-inline'; connect-src ${app}; frame-src ${app}; worker-src ${app}`,
      });
      res.end(page);
      return;
    }
    const query = url.searchParams.get("q") ?? "embed=1";
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retry guide</title></head>
<body><h1>Retry guide</h1><p>The widget below is embedded from another origin.</p>
<iframe id="lab" title="Idempotency Lab" width="1000" height="900"
  src="http://127.0.0.1:${port}/?${query.replace(/"/g, "")}"></iframe></body></html>`;
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'self'; frame-src http://127.0.0.1:" + port,
    });
    res.end(page);
  });
  host.listen(hostPort, "127.0.0.1", () => console.log(`host on http://localhost:${hostPort}/`));
}
