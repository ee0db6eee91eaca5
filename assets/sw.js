// The service worker that keeps every lab working with no network after
// one visit: it stores every file of this build when it installs, answers
// from that store first, and a new build (a new list below) installs
// beside it; the page then offers to reload. `make dist` writes the list
// of this build's files and their fingerprint in place of the two lines
// marked below (scripts/offline.mjs).
const FILES = []; // the build's files
const VERSION = "dev"; // the build's fingerprint
// One copy per place the app is hosted (an origin may host two).
const PREFIX = `idempotency-lab ${self.registration.scope} `;
const STORE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  // Past any HTTP cache: the files must all be this build's.
  const fresh = FILES.map((f) => new Request(f, { cache: "reload" }));
  event.waitUntil(caches.open(STORE).then((store) => store.addAll(fresh)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== STORE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page's "Reload" starts the waiting build at once.
self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();
});

// This build's files from the store (a link's query chooses settings, not
// a file); anything else from the network.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches
      .open(STORE)
      .then((store) => store.match(request, { ignoreSearch: true }))
      .then((kept) => kept ?? fetch(request)),
  );
});
